/**
 * The origin's build as `wrangler deploy` ships it (`npm test` builds first): the worker and
 * every router in the files it loads at start, Sentry's SDK and SimpleWebAuthn apart, and a
 * cold isolate running only the routers its first request reaches
 * (docs/decisions/041-origin-routers-on-first-use.md).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { extendZodWithOpenApi } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { measureWorker } from "../../bench/worker-sizes.ts";
import { builtSources } from "../support/built-sources.ts";
import type { CodeRun } from "../support/code-run.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const originBuild = path.join(repoRoot, "dist/paydesk_origin");
const mainModule = path.join(originBuild, "index.js");

function built(): void {
  if (!existsSync(mainModule)) throw new Error(`${mainModule} is missing: run \`npm run build\` first`);
}

const sourcesOf = (file: string) => builtSources(originBuild, file);

/** What the built origin ran, in a fresh Node process, after answering `requests` in turn. */
function codeRun(...requests: string[]): CodeRun {
  built();
  const probe = spawnSync(process.execPath, [path.join(repoRoot, "test/support/code-run.ts"), mainModule, ...requests], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
  const line = probe.stdout.split("\n").find((l) => l.startsWith("CODE-RUN "));
  if (probe.status !== 0 || !line)
    throw new Error(`code-run.ts failed (${probe.status}): ${probe.stderr.trim().split("\n").slice(-5).join(" ")}`);
  return JSON.parse(line.slice("CODE-RUN ".length)) as CodeRun;
}

const routerModule = /^workers\/origin\/src\/.+-routes\.ts$/;
const sentrySdk = /node_modules\/@sentry\//;
const simpleWebAuthn = /node_modules\/@simplewebauthn\/server\//;

describe("the origin's server build", () => {
  it("loads the worker and every router at start, and Sentry's SDK and SimpleWebAuthn only on demand", () => {
    built();
    const { startup, onDemand } = measureWorker("origin", originBuild);
    const startupSources = startup.flatMap(({ file }) => (existsSync(path.join(originBuild, `${file}.map`)) ? sourcesOf(file) : []));
    const routers = startupSources.filter((source) => routerModule.test(source));
    expect(routers).toEqual(
      expect.arrayContaining(["workers/origin/src/transfers/transfer-routes.ts", "workers/origin/src/ops/ops-routes.ts"]),
    );
    expect(routers.length).toBeGreaterThan(30);
    expect(startupSources.filter((source) => sentrySdk.test(source) || simpleWebAuthn.test(source))).toEqual([]);
    // Two files on demand, one for each library; no router is a file of its own.
    expect(onDemand).toHaveLength(2);
    const onDemandSources = onDemand.map(({ file }) => sourcesOf(file));
    expect(onDemandSources.filter((sources) => sources.some((source) => sentrySdk.test(source)))).toHaveLength(1);
    expect(onDemandSources.filter((sources) => sources.some((source) => simpleWebAuthn.test(source)))).toHaveLength(1);
    expect(onDemandSources.flat().filter((source) => routerModule.test(source))).toEqual([]);
  });

  it("hands @hono/zod-openapi zod's ZodType alone, so zod's unused parts stay out (docs/decisions/046-zod-openapi-extends-zod-type.md)", () => {
    built();
    const { startup, onDemand } = measureWorker("origin", originBuild);
    const sources = [...startup, ...onDemand].flatMap(({ file }) =>
      existsSync(path.join(originBuild, `${file}.map`)) ? sourcesOf(file) : [],
    );
    const zod = sources.filter((source) => source.startsWith("node_modules/zod/"));
    // What the contract's schemas run, with the English messages they import themselves.
    expect(zod).toEqual(expect.arrayContaining(["node_modules/zod/v4/classic/schemas.js", "node_modules/zod/v4/locales/en.js"]));
    // Kept only by a namespace passed as a value: the other locales and the index listing them,
    // the JSON Schema importer, the compiler of fast parsers (which workerd's lack of eval forbids).
    expect(zod.filter((source) => source.startsWith("node_modules/zod/v4/locales/"))).toEqual(["node_modules/zod/v4/locales/en.js"]);
    expect(zod).not.toContain("node_modules/zod/v4/classic/from-json-schema.js");
    expect(zod).not.toContain("node_modules/zod/v4/core/compile.js");
  });

  it("relies on extendZodWithOpenApi reading nothing of zod but ZodType, which is all the plugin hands it", () => {
    const read = new Set<string | symbol>();
    class ZodType {}
    const zod = new Proxy(
      { ZodType },
      {
        get(target, name) {
          read.add(name);
          return Reflect.get(target, name);
        },
      },
    );
    extendZodWithOpenApi(zod as unknown as Parameters<typeof extendZodWithOpenApi>[0]);
    expect([...read]).toEqual(["ZodType"]);
    expect(typeof (ZodType.prototype as { openapi?: unknown }).openapi).toBe("function");
  });

  // The session call is the first of every visit (docs/start-up.md); /api/health is a segment of one router.
  it.each([
    {
      request: "GET /api/health",
      status: 200,
      router: "workers/origin/src/http/health-routes.ts",
      notRun: [
        "workers/origin/src/transfers/transfer-routes.ts",
        "workers/origin/src/ledger/wallet-routes.ts",
        "contract/transfers.ts",
        "contract/wallet.ts",
        "workers/origin/src/wechat-pay/factory.ts",
        "workers/origin/src/scheduled.ts",
        // Reading WeChat Pay's configuration at start builds none of its schemas.
        "contract/payments.ts",
        "contract/orders.ts",
      ],
    },
    {
      request: "POST /api/user/session",
      status: 401,
      router: "workers/origin/src/auth/account-routes.ts",
      notRun: [
        "workers/origin/src/passkeys/passkey-sign-in-routes.ts",
        "workers/origin/src/auth/recovery-routes.ts",
        "contract/passkeys.ts",
        "contract/payments.ts",
        "contract/orders.ts",
      ],
    },
  ])("runs, on a first $request, one router ($router) and none of the others' schemas", ({ request, status, router, notRun }) => {
    const run = codeRun(request);
    expect(run.statuses).toEqual([status]);
    expect(run.ran.filter((source) => routerModule.test(source))).toEqual([router]);
    expect(run.notRun).toEqual(expect.arrayContaining(notRun));
  });

  it("runs a segment's routers and schemas on its first request, and still no other's", () => {
    // PATCH is not a method of /api/transfers: the transfers' app is built to find that out (405).
    const { statuses, ran, notRun } = codeRun("GET /api/health", "PATCH /api/transfers");
    expect(statuses).toEqual([200, 405]);
    expect(ran).toEqual(expect.arrayContaining(["workers/origin/src/transfers/transfer-routes.ts", "contract/transfers.ts"]));
    expect(notRun).toEqual(expect.arrayContaining(["workers/origin/src/ledger/wallet-routes.ts", "contract/wallet.ts"]));
  });

  it("runs every router for the published document", () => {
    const { statuses, ran, notRun } = codeRun("GET /api/openapi.json");
    expect(statuses).toEqual([200]);
    expect(ran.filter((source) => routerModule.test(source)).length).toBeGreaterThan(30);
    // The payer stand-in exists only where the WeChat Pay simulator is bound, never in the document.
    expect(notRun.filter((source) => routerModule.test(source))).toEqual(["workers/origin/src/wechat-pay/emulation/emulation-routes.ts"]);
  });
});
