import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterEach, describe, expect, it } from "vitest";
import { builtWorkerOptions } from "../test/support/built-worker.ts";
import { floorAnswer, writeConfigFloor } from "./startup-floor.ts";

const builtOrigin = path.resolve("dist/paydesk_origin");
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A worker directory as a build leaves it, at the depth the origin's is built at. */
function builtWorkerCopy(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "paydesk-floor-"));
  scratch.push(root);
  const dir = path.join(root, "dist/paydesk_origin");
  mkdirSync(path.join(dir, "assets"), { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
  return dir;
}

describe("a worker's configuration floor", () => {
  it("keeps the worker's whole configuration beside a one-line main module, and nothing else", () => {
    const config = JSON.stringify({ name: "w", main: "index.js", assets: { directory: "../client" } });
    const dir = builtWorkerCopy({ "wrangler.json": config, "index.js": "export default {};", "assets/chunk.js": "export {};" });

    const floorConfig = writeConfigFloor(dir);

    expect(path.dirname(path.dirname(floorConfig))).toBe(path.dirname(dir));
    expect(readFileSync(floorConfig, "utf8")).toBe(config);
    expect(readdirSync(path.dirname(floorConfig)).sort()).toEqual(["index.js", "wrangler.json"]);
    expect(readFileSync(path.join(path.dirname(floorConfig), "index.js"), "utf8")).not.toBe("export default {};");
  });

  it("starts in workerd under the built origin's own bindings and answers", async () => {
    const dir = builtWorkerCopy({});
    copyFileSync(path.join(builtOrigin, "wrangler.json"), path.join(dir, "wrangler.json"));

    const { worker, stubs } = builtWorkerOptions(writeConfigFloor(dir));
    // The bindings whose local emulation the floor is there to count.
    expect(Object.keys(worker.d1Databases ?? {})).toContain("DB");
    expect(Object.keys(worker.ratelimits ?? {}).length).toBeGreaterThan(0);
    expect(worker.modules).toHaveLength(1);

    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker, ...stubs] }));
    try {
      const answer = await mf.dispatchFetch("http://localhost/api/health");
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(floorAnswer);
    } finally {
      await mf.dispose();
    }
  });
});
