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
const pageHeaders = [
  ["Content-Type", "text/html; charset=utf-8"],
  ["Content-Security-Policy", "default-src 'self'; script-src 'self' 'nonce-abc'"],
  ["Vary", "Cookie, Accept-Language"],
  ["X-Edge-Cache", "HIT"],
];
let mf: Miniflare;

beforeAll(async () => {
  mkdirSync(assets);
  writeFileSync(path.join(assets, "bench-static-123.html"), page);
  writeFileSync(path.join(assets, "bench-static-123.headers.json"), JSON.stringify(pageHeaders));
  writeFileSync(path.join(assets, "not-headers.json"), JSON.stringify({ "Content-Type": "text/html" }));
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

  it("answers them with the page's own headers when an asset lists them", async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await mf.dispatchFetch("http://localhost/floor?page=%2Fbench-static-123&headers=%2Fbench-static-123.headers.json");
      expect(answer.status).toBe(200);
      for (const [name, value] of pageHeaders) expect(answer.headers.get(name!), name).toBe(value);
      expect(await answer.text()).toBe(page);
    }
    // The same page asked for without its headers is held apart, with its type alone.
    const plain = await mf.dispatchFetch("http://localhost/floor?page=%2Fbench-static-123");
    expect(plain.headers.get("Content-Security-Policy")).toBeNull();
    expect(await plain.text()).toBe(page);
  });

  it("refuses what is not a page of its assets", async () => {
    for (const url of [
      "/floor",
      "/floor?page=bench-static-123",
      "/floor?page=//evil.example/x",
      "/other?page=/bench-static-123",
      "/floor?page=/bench-static-123&headers=bench-static-123.headers.json",
      "/floor?page=/bench-static-123&headers=",
    ]) {
      const answer = await mf.dispatchFetch(`http://localhost${url}`);
      expect(answer.status, url).toBe(404);
      await answer.arrayBuffer();
    }
    const missing = await mf.dispatchFetch("http://localhost/floor?page=/bench-static-9");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("the assets answered 404");
    const noList = await mf.dispatchFetch("http://localhost/floor?page=/bench-static-123&headers=/bench-static-9.headers.json");
    expect(noList.status).toBe(404);
    expect(await noList.text()).toContain("/bench-static-9.headers.json: the assets answered 404");
    const notAList = await mf.dispatchFetch("http://localhost/floor?page=/bench-static-123&headers=/not-headers.json");
    expect(notAList.status).toBe(404);
    expect(await notAList.text()).toContain("not a list of [name, value] pairs");
  });
});
