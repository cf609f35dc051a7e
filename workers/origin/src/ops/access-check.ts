import { createMiddleware } from "hono/factory";
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from "jose";
import { noRouteError } from "../http/answer";
import type { OriginEnv } from "../origin-env";

/** Where a Cloudflare Access team publishes the keys that sign its JWTs. */
export type AccessKeys = (teamDomain: string) => JWTVerifyGetKey;

// One key set per team per isolate: jose caches the keys it fetched and refetches on a new kid.
const remoteKeySets = new Map<string, JWTVerifyGetKey>();
const remoteAccessKeys: AccessKeys = (teamDomain) => {
  let keys = remoteKeySets.get(teamDomain);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`https://${teamDomain}/cdn-cgi/access/certs`));
    remoteKeySets.set(teamDomain, keys);
  }
  return keys;
};

/**
 * Defence in depth for the back office (docs/decisions/012-operators-and-audit.md): with
 * ACCESS_TEAM_DOMAIN and ACCESS_AUD set, a request must also carry a Cloudflare Access JWT
 * (`Cf-Access-Jwt-Assertion`) signed by the team's keys, issued by the team, for this
 * application, and unexpired. Without one it hears what an unknown path answers (404), as
 * anyone who is not an operator does. Unset, operators' sessions alone decide.
 */
export const accessCheck = (keysOf: AccessKeys = remoteAccessKeys) =>
  createMiddleware<OriginEnv>(async (c, next) => {
    const teamDomain = c.env.ACCESS_TEAM_DOMAIN;
    const audience = c.env.ACCESS_AUD;
    if (teamDomain && audience) {
      const token = c.req.header("Cf-Access-Jwt-Assertion");
      if (!token) throw noRouteError(c);
      try {
        await jwtVerify(token, keysOf(teamDomain), { issuer: `https://${teamDomain}`, audience, algorithms: ["RS256"] });
      } catch {
        throw noRouteError(c);
      }
    }
    await next();
  });
