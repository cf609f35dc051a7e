import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare, type V4WorkerOptions } from "miniflare";
import { transformWithOxc } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { writeFloorConfig } from "./config.ts";

// The floor worker in workerd, configured as bench/serve.ts configures it, beside an edge
// config and an assets directory of its own.
const root = mkdtempSync(path.join(tmpdir(), "paydesk-floor-worker-"));
const assets = path.join(root, "client");
const page = `<!doctype html><html lang="en"><head><title>Help · 帮助</title></head><body><main><h1>Help</h1></main></body></html>`;
let mf: Miniflare;

beforeAll(async () => {
  mkdirSync(assets);
  writeFileSync(path.join(assets, "bench-static-123.html"), page);
  const edgeConfig = path.join(root, "edge.json");
  writeFileSync(edgeConfig, JSON.stringify({ compatibility_date: "2026-01-01", assets: { run_worker_first: ["/api/*"] } }));
  const config = writeFloorConfig(path.join(root, "floor"), { config: edgeConfig, assetsDirectory: assets, secret: "s" });

  const source = path.join(import.meta.dirname, "worker.ts");
  const { code } = await transformWithOxc(readFileSync(source, "utf8"), source);
  const main = path.join(root, "floor", "worker.js");
  writeFileSync(main, code);
  const { modulesRules: _rules, rootPath: _root, ...options } = unstable_getMiniflareWorkerOptions(config).workerOptions as V4WorkerOptions;
  mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [{ ...options, name: "floor", modules: [{ type: "ESModule", path: main }], modulesRoot: path.dirname(main) }],
    }),
  );
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe("the bench's floor worker", () => {
  it("answers a static asset's own bytes, with its type, from the assets bound as ASSETS", async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await mf.dispatchFetch("http://localhost/floor?page=%2Fbench-static-123");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(await answer.text()).toBe(page);
    }
  });

  it("refuses what is not a page of its assets", async () => {
    for (const url of ["/floor", "/floor?page=bench-static-123", "/floor?page=//evil.example/x", "/other?page=/bench-static-123"]) {
      const answer = await mf.dispatchFetch(`http://localhost${url}`);
      expect(answer.status, url).toBe(404);
      await answer.arrayBuffer();
    }
    const missing = await mf.dispatchFetch("http://localhost/floor?page=/bench-static-9");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("the assets answered 404");
  });
});
