import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createEdgeHandler, type EdgeEnv } from "../../workers/edge/edge-handler";
import { createPageCache } from "../../workers/edge/page-cache";

const teamDomain = "paydesk-test.cloudflareaccess.com";
const audience = "aud-tag-of-the-back-office";
const accessEnv: EdgeEnv = { ACCESS_TEAM_DOMAIN: teamDomain, ACCESS_AUD: audience };

let team: CryptoKeyPair;
let stranger: CryptoKeyPair;
let rendered: string[];
let handle: ReturnType<typeof createEdgeHandler>;

function accessJwt({ key = team.privateKey, aud = audience, expiresIn = "1h" } = {}) {
  return new SignJWT({ email: "ops@paydesk.example" })
    .setProtectedHeader({ alg: "RS256", kid: "team-key" })
    .setIssuer(`https://${teamDomain}`)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

async function visit(path: string, env: EdgeEnv, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const response = await handle(new Request(`https://paydesk.test${path}`, { headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

beforeAll(async () => {
  team = await generateKeyPair("RS256", { extractable: true });
  stranger = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(team.publicKey)), kid: "team-key", alg: "RS256" };
  const cache = await caches.open(`pages-${crypto.randomUUID()}`);
  handle = createEdgeHandler({
    build: { assets: { version: "test" }, routes: {} } as unknown as ServerBuild,
    cache: createPageCache(() => cache),
    // The team's key set, held locally: no request leaves the test.
    accessKeys: () => createLocalJWKSet({ keys: [jwk] }),
    render: async (request) => {
      rendered.push(new URL(request.url).pathname);
      return new Response("<!doctype html><p>page</p>", { headers: { "Content-Type": "text/html" } });
    },
  });
});

describe("Cloudflare Access in front of the back office's pages", () => {
  it("serves /ops as usual when it is not configured", async () => {
    rendered = [];
    expect((await visit("/ops/people", {})).status).toBe(200);
    expect(rendered).toEqual(["/ops/people"]);
  });

  it("with it configured, serves the pages only with a valid pass; else the ordinary 404 page", async () => {
    const cases: [string, Record<string, string>, number][] = [
      ["a valid pass", { "Cf-Access-Jwt-Assertion": await accessJwt() }, 200],
      ["no pass", {}, 404],
      ["a malformed pass", { "Cf-Access-Jwt-Assertion": "not.a.jwt" }, 404],
      ["another key's pass", { "Cf-Access-Jwt-Assertion": await accessJwt({ key: stranger.privateKey }) }, 404],
      ["another application's pass", { "Cf-Access-Jwt-Assertion": await accessJwt({ aud: "another-app" }) }, 404],
      ["an expired pass", { "Cf-Access-Jwt-Assertion": await accessJwt({ expiresIn: "-1m" }) }, 404],
    ];
    for (const [what, headers, status] of cases) {
      rendered = [];
      const response = await visit("/ops/people", accessEnv, headers);
      expect(response.status, what).toBe(status);
      expect(response.headers.get("Cache-Control"), what).toBe("no-store");
      // Refused, the page rendered is the not-found route's, never the back office's.
      expect(rendered, what).toEqual([status === 200 ? "/ops/people" : "/ops-not-here"]);
    }
  });

  it("guards every spelling of the back office's paths that React Router matches", async () => {
    for (const path of ["/OPS/people", "/Ops", "/%6Fps/people", "/%6f%70%73", "//ops/people", "/ops%5Cpeople", "/ops.data", "/OPS.data"]) {
      rendered = [];
      const response = await visit(path, accessEnv);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Cache-Control"), path).toBe("no-store");
      expect(response.headers.get("X-Robots-Tag"), path).toBe("noindex, nofollow");
      expect(rendered, path).toEqual(["/ops-not-here"]);
    }
  });

  it("guards the doors that name back-office pages in their query: route discovery and a route's loader data", async () => {
    for (const path of [
      "/__manifest?version=test&paths=%2Fops%2Fpeople%2C%2Fops%2Frefunds",
      "/__manifest?version=test&paths=%2Fhelp%2C%2FOPS",
      "/__manifest?version=test&paths=ops",
      "/__manifest?version=test&paths=help%2COps%2Fpeople",
      "/__serverLoader?route=ops_people&url=%2Fops%2Fpeople",
      "/__serverLoader?route=ops_people&url=https%3A%2F%2Fpaydesk.test%2F%256Fps",
    ]) {
      rendered = [];
      const response = await visit(path, accessEnv);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Cache-Control"), path).toBe("no-store");
      expect(rendered, path).toEqual(["/ops-not-here"]);
    }
    // The operator's browser discovers the back office's routes as usual: Access adds no header
    // outside its application's paths, but the browser sends Access's cookie, checked the same way.
    rendered = [];
    const discovery = "/__manifest?version=test&paths=%2Fops%2Fpeople";
    const passed = await visit(discovery, accessEnv, { Cookie: `lang=en; CF_Authorization=${await accessJwt()}` });
    expect(passed.status).toBe(200);
    expect(passed.headers.get("Cache-Control")).toBe("no-store");
    expect(rendered).toEqual(["/__manifest"]);
    const forged = await visit(discovery, accessEnv, { Cookie: `CF_Authorization=${await accessJwt({ key: stranger.privateKey })}` });
    expect(forged.status).toBe(404);
    // On the back office's own paths only Access's header counts: it proves Access checked this request.
    const cookieOnly = await visit("/ops/people", accessEnv, { Cookie: `CF_Authorization=${await accessJwt()}` });
    expect(cookieOnly.status).toBe(404);
  });

  it("leaves the people's pages alone", async () => {
    rendered = [];
    expect((await visit("/help", accessEnv)).status).toBe(200);
    expect((await visit("/opsroom", accessEnv)).status).toBe(200);
    expect((await visit("/opsroom.data", accessEnv)).status).toBe(200);
    expect((await visit("/__manifest?version=test&paths=%2Fhelp%2C%2Fopsroom", accessEnv)).status).toBe(200);
    expect(rendered).toEqual(["/help", "/opsroom", "/opsroom.data", "/__manifest"]);
  });
});
