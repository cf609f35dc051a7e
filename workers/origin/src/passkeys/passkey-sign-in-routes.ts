import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { signInAnswerSchema } from "#contract/account";
import { errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { authenticationOptionsSchema, passkeyChallengeLifetimeMs, passkeySignInBodySchema } from "#contract/passkeys";
import { hashToken } from "../auth/bearer-token";
import { findSessionUser, sessionTime } from "../auth/sessions";
import { newSessionToken, sessionDeviceOf } from "../auth/session-tokens";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { base64urlToUtf8, fromBase64url } from "./base64url";
import { challengeOf, issueChallenge, spendChallenge } from "./challenges";
import { passkeyByCredentialId } from "./passkey-store";
import { relyingPartyOf, userVerification } from "./relying-party";
import { simpleWebAuthn } from "./webauthn-library";

const options = createRoute({
  method: "post",
  path: "/passkey/options",
  summary: "Options for signing in with a passkey: pass them to navigator.credentials.get() (single use, five minutes)",
  responses: {
    200: jsonContent(successEnvelope(authenticationOptionsSchema), "WebAuthn request options (JSON form), for any passkey of this site"),
  },
});

const signIn = createRoute({
  method: "post",
  path: "/passkey/login",
  summary: "Sign in with a passkey: a new bearer token, as the password sign-in gives",
  request: { body: { content: { "application/json": { schema: passkeySignInBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(signInAnswerSchema), "Signed in"),
    401: errorContent("PASSKEY_NOT_RECOGNISED"),
    422: errorContent("PASSKEY_CHALLENGE_EXPIRED"),
  },
});

const notRecognised = () =>
  new ApiError("PASSKEY_NOT_RECOGNISED", "No account has this passkey, or its answer did not verify. Sign in with your password.");

/** The account id a user handle carries, or null when it is not one we gave. */
function handleOwner(userHandle: string): string | null {
  try {
    return base64urlToUtf8(userHandle);
  } catch {
    return null;
  }
}

const isBatchAssertion = (error: unknown) => error instanceof Error && error.message.includes("batch_assertion");

export const passkeySignInRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
passkeySignInRoutes.use("/passkey/*", doorLimit("passkeySignIn"));

passkeySignInRoutes
  .openapi(options, async (c) => {
    const rp = relyingPartyOf(c.env);
    const challenge = await issueChallenge(c.env.DB, "sign_in", null, c.var.clock.now());
    // No allowCredentials: the person is not known yet, and the browser's autofill
    // (conditional mediation) offers only passkeys it may list by itself.
    const { generateAuthenticationOptions } = await simpleWebAuthn();
    const generated = await generateAuthenticationOptions({
      rpID: rp.id,
      challenge: fromBase64url(challenge),
      timeout: passkeyChallengeLifetimeMs,
      userVerification,
    });
    const { rpId, timeout } = generated;
    const data = { challenge: generated.challenge, rpId, timeout, userVerification };
    return c.json({ code: "SUCCESS" as const, data: authenticationOptionsSchema.parse(data) }, 200);
  })
  .openapi(signIn, async (c) => {
    const { credential } = c.req.valid("json");
    const db = c.env.DB;
    const now = c.var.clock.now();
    const rp = relyingPartyOf(c.env);
    const challenge = challengeOf(credential.response.clientDataJSON);
    // Well-formed as the contract has it, but no browser's client data: it cannot verify.
    if (challenge === null) throw notRecognised();
    // Spent first, whatever follows: an answer is tried once, and of two tries of one
    // challenge at once only one gets past here.
    if (!(await spendChallenge(db, challenge, "sign_in", null, now))) {
      throw new ApiError("PASSKEY_CHALLENGE_EXPIRED", "That passkey request is unknown, used or expired. Ask for new options.");
    }
    const found = await passkeyByCredentialId(db, credential.id);
    if (!found) throw notRecognised();
    // The user handle the authenticator stored at registration names the passkey's owner.
    const { userHandle } = credential.response;
    if (userHandle !== undefined && handleOwner(userHandle) !== found.row.user_id) throw notRecognised();
    const { verifyAuthenticationResponse } = await simpleWebAuthn();
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: found.credential,
        requireUserVerification: true,
      });
      if (!verified.verified) throw notRecognised();
      newCounter = verified.authenticationInfo.newCounter;
    } catch {
      // A wrong signature, origin or relying party, or a counter that went back (a cloned
      // authenticator): all the same to the person signing in.
      throw notRecognised();
    }
    const { token, insert } = await newSessionToken(db, found.row.user_id, now, sessionDeviceOf(c));
    try {
      await db.batch([
        db
          .prepare("UPDATE passkey SET counter = ?2, last_used_at = ?3 WHERE id = ?1 AND (counter < ?2 OR (counter = 0 AND ?2 = 0))")
          .bind(found.row.id, newCounter, now),
        // Removed meanwhile, or a signature with this counter or a later one counted first (even
        // in the same millisecond: two signatures of a cloned authenticator): no session.
        db.prepare("INSERT INTO batch_assertion (what, holds) SELECT 'passkey used', changes() = 1"),
        insert,
      ]);
    } catch (error) {
      if (isBatchAssertion(error)) throw notRecognised();
      throw error;
    }
    // As the password sign-in answers; a locked account signs in too and learns it is locked
    // (docs/decisions/013-account-locks.md).
    const user = await findSessionUser(db, await hashToken(token), sessionTime(c.env, now));
    if (!user) throw new Error("A session created just now was not found.");
    return c.json({ code: "SUCCESS" as const, data: { token, user } }, 200);
  });
