import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import {
  addPasskeyBodySchema,
  maxPasskeysPerPerson,
  passkeyChallengeLifetimeMs,
  passkeyIdParamSchema,
  passkeyListSchema,
  passkeySchema,
  registrationOptionsSchema,
} from "#contract/passkeys";
import { renamePasskeyBodySchema } from "#contract/passkey-name";
import { passkeyOptionsBodySchema } from "#contract/account-safety";
import { checkCurrentPassword } from "../account/account-password";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts, ReplayAnswer } from "../idempotency/idempotency";
import { doorLimitOnPost, doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { fromBase64url, toBase64url } from "./base64url";
import { challengeOf, issueChallenge, spendChallenge } from "./challenges";
import { type PasskeyRow, passkeyOf, passkeysOf, returningPasskey, transportsOf } from "./passkey-store";
import { passkeyAlgorithms, relyingPartyOf, userVerification } from "./relying-party";
import { simpleWebAuthn } from "./webauthn-library";

const registrationOptions = createRoute({
  method: "post",
  path: "/options",
  summary: "Options for adding a passkey, with my password: pass them to navigator.credentials.create() (single use, five minutes)",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: passkeyOptionsBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(registrationOptionsSchema), "WebAuthn creation options (JSON form)"),
    409: errorContent("TOO_MANY_PASSKEYS"),
    422: errorContent("WRONG_PASSWORD (field password)"),
  },
});

const add = createRoute({
  method: "post",
  path: "/",
  summary: "Add a passkey: the browser's answer to the options, verified, with the name I give it",
  security: bearerAuth,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: addPasskeyBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(passkeySchema), "The passkey added"),
    409: errorContent("PASSKEY_ALREADY_ADDED, TOO_MANY_PASSKEYS"),
    422: errorContent("PASSKEY_CHALLENGE_EXPIRED, PASSKEY_NOT_VERIFIED"),
  },
});

const list = createRoute({
  method: "get",
  path: "/",
  summary: "My passkeys, oldest first",
  security: bearerAuth,
  responses: { 200: jsonContent(successEnvelope(passkeyListSchema), "My passkeys") },
});

const rename = createRoute({
  method: "post",
  path: "/{id}/rename",
  summary: "Rename one of my passkeys",
  security: bearerAuth,
  request: {
    params: passkeyIdParamSchema,
    body: { content: { "application/json": { schema: renamePasskeyBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(passkeySchema), "The passkey renamed"),
    404: errorContent("NOT_FOUND: no passkey of mine has this id"),
  },
});

const remove = createRoute({
  method: "post",
  path: "/{id}/remove",
  summary: "Remove one of my passkeys: it no longer signs anyone in",
  security: bearerAuth,
  request: { params: passkeyIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(z.null()), "Removed"),
    404: errorContent("NOT_FOUND: no passkey of mine has this id"),
  },
});

const notVerified = () => new ApiError("PASSKEY_NOT_VERIFIED", "The authenticator's answer did not verify.");
const notFound = () => new ApiError("NOT_FOUND", "You have no passkey with that id.");
const tooMany = () =>
  new ApiError("TOO_MANY_PASSKEYS", `An account has at most ${maxPasskeysPerPerson} passkeys. Remove one before adding another.`);

const isCredentialTaken = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed: passkey\.credential_id/.test(error.message);
const isBatchAssertion = (error: unknown) => error instanceof Error && error.message.includes("batch_assertion");

export const passkeyRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
passkeyRoutes.use("*", signedInUser);
// The options ask for the password: its guesses count where a password change's do.
passkeyRoutes.use("/options", doorLimit("passkeys"), doorLimit("accountSecurity"));
passkeyRoutes.use(
  "/",
  idempotentPosts((c) => c.var.user.id),
  doorLimitOnPost("passkeys"),
);

passkeyRoutes
  .openapi(registrationOptions, async (c) => {
    const user = c.var.user;
    const db = c.env.DB;
    const rp = relyingPartyOf(c.env);
    // A challenge is issued only to whoever knows the password; the passkey answering it is
    // then added within its five minutes (docs/decisions/024-account-safety.md).
    await checkCurrentPassword(db, user.id, c.req.valid("json").password, "password");
    const existing = await passkeysOf(db, user.id);
    if (existing.length >= maxPasskeysPerPerson) throw tooMany();
    const challenge = await issueChallenge(db, "register", user.id, c.var.clock.now());
    const { generateRegistrationOptions } = await simpleWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      // The WebAuthn user handle: the account's id, random and not personal. A passkey
      // signing in hands it back, and it must name the passkey's owner.
      userID: new TextEncoder().encode(user.id) as Uint8Array<ArrayBuffer>,
      userName: user.handle,
      userDisplayName: user.displayName,
      challenge: fromBase64url(challenge),
      timeout: passkeyChallengeLifetimeMs,
      attestationType: "none",
      // One passkey per authenticator and account: the browser says so instead of making a second.
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      // Discoverable, so it can sign in without a handle typed first (and through autofill).
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification },
      supportedAlgorithmIDs: passkeyAlgorithms,
    });
    return c.json({ code: "SUCCESS" as const, data: registrationOptionsSchema.parse(options) }, 200);
  })
  .openapi(add, async (c) => {
    const { name, credential } = c.req.valid("json");
    const user = c.var.user;
    const db = c.env.DB;
    const now = c.var.clock.now();
    const rp = relyingPartyOf(c.env);
    const challenge = challengeOf(credential.response.clientDataJSON);
    // Well-formed as the contract has it, but no browser's client data: it cannot verify.
    if (challenge === null) return c.var.idempotency.refuse(notVerified());
    if (!(await spendChallenge(db, challenge, "register", user.id, now))) {
      // A twin with this key may have spent it a moment ago: its answer is this one's.
      const twin = await c.var.idempotency.twinAnswer();
      if (twin) throw new ReplayAnswer(twin);
      return c.var.idempotency.refuse(
        new ApiError("PASSKEY_CHALLENGE_EXPIRED", "That passkey request is unknown, used or expired. Ask for new options."),
      );
    }
    const { verifyRegistrationResponse } = await simpleWebAuthn();
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: passkeyAlgorithms,
      });
    } catch {
      verified = { verified: false };
    }
    if (!verified.verified) {
      return c.var.idempotency.refuse(notVerified());
    }
    const info = verified.registrationInfo;
    const row = {
      id: `pk_${crypto.randomUUID()}`,
      name,
      created_at: now,
      last_used_at: null,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
    } satisfies Partial<PasskeyRow>;
    try {
      return await c.var.idempotency.commit(
        [
          db
            .prepare(
              `INSERT INTO passkey (id, credential_id, user_id, public_key, counter, transports, device_type, backed_up, name, created_at)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
            )
            .bind(
              row.id,
              info.credential.id,
              user.id,
              toBase64url(info.credential.publicKey),
              info.credential.counter,
              JSON.stringify(credential.response.transports ?? []),
              row.device_type,
              row.backed_up,
              name,
              now,
            ),
          // Two additions at once cannot together pass the limit.
          db
            .prepare(
              "INSERT INTO batch_assertion (what, holds) SELECT 'room for a passkey', (SELECT count(*) FROM passkey WHERE user_id = ?1) <= ?2",
            )
            .bind(user.id, maxPasskeysPerPerson),
        ],
        201,
        { code: "SUCCESS" as const, data: passkeyOf(row) },
      );
    } catch (error) {
      if (isCredentialTaken(error)) {
        return c.var.idempotency.refuse(new ApiError("PASSKEY_ALREADY_ADDED", "This passkey is on an account already."));
      }
      if (isBatchAssertion(error)) return c.var.idempotency.refuse(tooMany(), { lasting: false });
      throw error;
    }
  })
  .openapi(list, async (c) => {
    const rows = await passkeysOf(c.env.DB, c.var.user.id);
    return c.json({ code: "SUCCESS" as const, data: { passkeys: rows.map(passkeyOf) } }, 200);
  })
  .openapi(rename, async (c) => {
    const { id } = c.req.valid("param");
    const { name } = c.req.valid("json");
    const row = await c.env.DB.prepare(`UPDATE passkey SET name = ?1 WHERE id = ?2 AND user_id = ?3 ${returningPasskey}`)
      .bind(name, id, c.var.user.id)
      .first<PasskeyRow>();
    if (!row) throw notFound();
    return c.json({ code: "SUCCESS" as const, data: passkeyOf(row) }, 200);
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    const removed = await c.env.DB.prepare("DELETE FROM passkey WHERE id = ?1 AND user_id = ?2 RETURNING id")
      .bind(id, c.var.user.id)
      .first<{ id: string }>();
    if (!removed) throw notFound();
    return c.json({ code: "SUCCESS" as const, data: null }, 200);
  });
