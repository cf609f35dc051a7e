/**
 * The edge's server build as `wrangler deploy` ships it (`npm test` builds first): what it
 * bundles, and that it runs under its own compatibility flags, which leave Node's APIs out
 * (docs/decisions/034-lighter-edge.md). The `edge` project cannot show the latter: Vitest's
 * Workers pool adds Node's modules to the worker it tests, for its own use.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { describe, expect, it } from "vitest";
import { builtSources } from "../support/built-sources";
import { builtWorkerOptions } from "../support/built-worker";
import { startSentrySink } from "../support/sentry-sink";

const serverBuild = path.resolve(import.meta.dirname, "../../build/server");
const config = path.join(serverBuild, "wrangler.json");

function built(): void {
  if (!existsSync(config)) throw new Error(`${config} is missing: run \`npm run build\` first`);
}

/** The source files of every module the server build wrote. */
function bundledSources(): string[] {
  built();
  const maps = readdirSync(serverBuild, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js.map"));
  return maps.flatMap((map) => builtSources(serverBuild, map.slice(0, -".map".length)));
}

const sentrySdk = /node_modules[\\/]@sentry[\\/]/;

describe("the edge's server build", () => {
  it("bundles no zod: the contract's schemas reach the browser only (app/contract-schemas.ts, and what the signed-out forms run on a submit)", () => {
    const sources = bundledSources();
    // What the pages render from the contract (its plain lists) is there, and its pages are.
    expect(sources.some((source) => source.endsWith("contract/value-lists.ts"))).toBe(true);
    expect(sources.some((source) => source.endsWith("app/routes/login.tsx"))).toBe(true);
    expect(sources.filter((source) => /node_modules[\\/]zod[\\/]/.test(source))).toEqual([]);
  });

  it("bundles React's streaming renderer alone, not the string renderer react-dom/server's edge entry also requires (vite/edge-react-dom-server.ts)", () => {
    const sources = bundledSources();
    expect(sources.filter((source) => /react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/.test(source))).toHaveLength(1);
    expect(sources.filter((source) => /react-dom[\\/]cjs[\\/]react-dom-server-legacy\./.test(source))).toEqual([]);
  });

  it("leaves Sentry's SDK out of the main module: an edge without a DSN never evaluates it (workers/edge/error-reporting.ts)", () => {
    built();
    const main = readFileSync(path.join(serverBuild, "index.js"), "utf8");
    expect(builtSources(serverBuild, "index.js").filter((source) => sentrySdk.test(source))).toEqual([]);
    // The SDK is a chunk of its own, imported dynamically by the main module and by nothing statically.
    const chunks = readdirSync(path.join(serverBuild, "assets")).filter((file) => file.endsWith(".js"));
    const sdkChunks = chunks.filter((file) => builtSources(serverBuild, `assets/${file}`).some((source) => sentrySdk.test(source)));
    expect(sdkChunks).toHaveLength(1);
    expect(main).toContain(`import(\`./assets/${sdkChunks[0]}\`)`);
    expect(main).not.toMatch(new RegExp(`from\\s*["']\\./assets/${sdkChunks[0]}["']`));
  });

  it("runs under its own flags, without Node's APIs, and still reports a failed render to Sentry", async () => {
    built();
    const { worker, stubs } = builtWorkerOptions(config);
    expect(worker.compatibilityFlags).toEqual(expect.arrayContaining(["no_nodejs_compat", "no_nodejs_compat_v2", "nodejs_als"]));
    const sink = await startSentrySink();
    // A contact address that is not one makes /contact fail to render (app/content/contact.server.ts).
    const bindings = { ...worker.bindings, SENTRY_DSN: sink.dsn, CONTACT_EMAIL: "nowhere" };
    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [{ ...worker, bindings }, ...stubs] }));
    try {
      const help = await mf.dispatchFetch("http://localhost/help", { headers: { "Accept-Language": "en" } });
      expect(help.status).toBe(200);
      expect(await help.text()).toContain('<html lang="en"');
      const contact = await mf.dispatchFetch("http://localhost/contact", { headers: { "Accept-Language": "en" } });
      expect(contact.status).toBe(500);
      await contact.arrayBuffer();
      const received = async () => await (await fetch(`http://127.0.0.1:${sink.port}/envelopes`)).text();
      await expect.poll(received, { timeout: 5_000 }).toContain("CONTACT_EMAIL is not set to an email address");
    } finally {
      await mf.dispose();
      sink.server.close();
    }
  });
});
