/**
 * The edge's server build as `wrangler deploy` ships it (`npm test` builds first): what it
 * bundles, and that it runs under its own compatibility flags, which leave Node's APIs out
 * (docs/decisions/034-lighter-edge.md). The `edge` project cannot show the latter: Vitest's
 * Workers pool adds Node's modules to the worker it tests, for its own use.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare, type V4WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { describe, expect, it } from "vitest";

const serverBuild = path.resolve(import.meta.dirname, "../../build/server");
const config = path.join(serverBuild, "wrangler.json");

function built(): void {
  if (!existsSync(config)) throw new Error(`${config} is missing: run \`npm run build\` first`);
}

/** The source files of every module the server build wrote, from their source maps. */
function bundledSources(): string[] {
  built();
  const maps = readdirSync(serverBuild, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js.map"));
  return maps.flatMap((file) => (JSON.parse(readFileSync(path.join(serverBuild, file), "utf8")) as { sources: string[] }).sources);
}

describe("the edge's server build", () => {
  it("bundles no zod: the contract's schemas reach the browser only (app/contract.client.ts)", () => {
    const sources = bundledSources();
    // What the pages render from the contract (its plain lists) is there, and its pages are.
    expect(sources.some((source) => source.endsWith("contract/value-lists.ts"))).toBe(true);
    expect(sources.some((source) => source.endsWith("app/routes/login.tsx"))).toBe(true);
    expect(sources.filter((source) => /node_modules[\\/]zod[\\/]/.test(source))).toEqual([]);
  });

  it("runs under its own flags, without Node's APIs, and still reports a failed render to Sentry", async () => {
    built();
    const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
    expect(workerOptions.compatibilityFlags).toEqual(expect.arrayContaining(["no_nodejs_compat", "no_nodejs_compat_v2", "nodejs_als"]));
    const envelopes: string[] = [];
    const sink = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        envelopes.push(body);
        response.end("{}");
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const { modulesRules: _rules, rootPath: _root, ...options } = workerOptions as V4WorkerOptions;
    const root = path.dirname(main ?? "");
    const modules = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.m?js$/.test(file))
      .map((file) => ({ type: "ESModule" as const, path: path.join(root, file) }));
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        workers: [
          {
            ...options,
            name: "paydesk",
            modules: [{ type: "ESModule", path: main ?? "" }, ...modules.filter((module) => module.path !== main)],
            modulesRoot: root,
            // A contact address that is not one makes /contact fail to render (app/content/contact.server.ts).
            bindings: {
              ...options.bindings,
              SENTRY_DSN: `http://key@127.0.0.1:${(sink.address() as AddressInfo).port}/1`,
              CONTACT_EMAIL: "nowhere",
            },
          },
          { name: "paydesk-origin", modules: true, script: "export default { fetch: () => new Response(null, { status: 503 }) };" },
        ],
      }),
    );
    try {
      const help = await mf.dispatchFetch("http://localhost/help", { headers: { "Accept-Language": "en" } });
      expect(help.status).toBe(200);
      expect(await help.text()).toContain('<html lang="en"');
      const contact = await mf.dispatchFetch("http://localhost/contact", { headers: { "Accept-Language": "en" } });
      expect(contact.status).toBe(500);
      await contact.arrayBuffer();
      await expect.poll(() => envelopes.join("\n"), { timeout: 5_000 }).toContain("CONTACT_EMAIL is not set to an email address");
    } finally {
      await mf.dispose();
      sink.close();
    }
  });
});
