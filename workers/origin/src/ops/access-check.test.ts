import { env } from "cloudflare:workers";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, seedUser } from "../../test/origin-client";
import { createOriginApp, type OriginApp } from "../app";

const teamDomain = "paydesk-test.cloudflareaccess.com";
const audience = "aud-tag-of-the-back-office";
const accessEnv = { ...env, ACCESS_TEAM_DOMAIN: teamDomain, ACCESS_AUD: audience };

let team: CryptoKeyPair;
let stranger: CryptoKeyPair;
let app: OriginApp;
let admin: Awaited<ReturnType<typeof seedUser>>;

/** A JWT as Cloudflare Access issues it; each test changes what it needs to. */
function accessJwt({ key = team.privateKey, issuer = `https://${teamDomain}`, aud = audience, expiresIn = "1h" } = {}) {
  return new SignJWT({ email: "ops@paydesk.example" })
    .setProtectedHeader({ alg: "RS256", kid: "team-key" })
    .setIssuer(issuer)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

const me = (headers: Record<string, string>, bindings: Env = accessEnv) =>
  app.request("/api/ops/me", { headers: { ...admin.auth, ...headers } }, bindings);

beforeAll(async () => {
  team = await generateKeyPair("RS256", { extractable: true });
  stranger = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(team.publicKey)), kid: "team-key", alg: "RS256" };
  // The team's key set, held locally: no request leaves the test.
  app = await createOriginApp({ accessKeys: () => createLocalJWKSet({ keys: [jwk] }) });
});

beforeEach(async () => {
  await resetDatabase();
  admin = await seedUser("op_admin");
  await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'admin', 'cli', 0)")
    .bind(admin.id)
    .run();
});

describe("Cloudflare Access in front of the back office", () => {
  it("lets an operator through with a valid Access JWT", async () => {
    expect((await me({ "Cf-Access-Jwt-Assertion": await accessJwt() })).status).toBe(200);
  });

  it("answers 404, as for anyone who is not an operator, without one or with one that is not the team's for this application", async () => {
    const refused: Record<string, string>[] = [
      {},
      { "Cf-Access-Jwt-Assertion": "not-a-jwt" },
      { "Cf-Access-Jwt-Assertion": await accessJwt({ key: stranger.privateKey }) },
      { "Cf-Access-Jwt-Assertion": await accessJwt({ aud: "another-application" }) },
      { "Cf-Access-Jwt-Assertion": await accessJwt({ issuer: "https://elsewhere.cloudflareaccess.com" }) },
      { "Cf-Access-Jwt-Assertion": await accessJwt({ expiresIn: "-1m" }) },
    ];
    for (const headers of refused) {
      const answer = await me(headers);
      expect(answer.status, JSON.stringify(headers).slice(0, 60)).toBe(404);
      expect(await answer.json()).toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("still needs the operator's own session: an Access JWT alone is not enough", async () => {
    const answer = await app.request("/api/ops/me", { headers: { "Cf-Access-Jwt-Assertion": await accessJwt() } }, accessEnv);
    expect(answer.status).toBe(404);
  });

  it("is off unless both ACCESS_TEAM_DOMAIN and ACCESS_AUD are set", async () => {
    expect((await me({}, env)).status).toBe(200);
    expect((await me({}, { ...env, ACCESS_TEAM_DOMAIN: teamDomain })).status).toBe(200);
  });
});
