import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { measureFirstVisit } from "./sizes.ts";

describe("measureFirstVisit", () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), "paydesk-sizes-"));
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
  mkdirSync(path.join(clientDir, "assets"));
  const chunks = {
    "entry.js": `import{a}from"./shared.js";import("./lazy.js");console.log(a)`,
    "shared.js": `import"./forgotten.js";export const a=1;`,
    "forgotten.js": `export const b=${JSON.stringify("x".repeat(500))};`,
    "lazy.js": `export const c=${JSON.stringify("y".repeat(5000))};`,
  };
  for (const [name, source] of Object.entries(chunks)) writeFileSync(path.join(clientDir, "assets", name), source);
  const gzip = (name: keyof typeof chunks) => gzipSync(chunks[name], { level: 9 }).length;

  it("counts what the HTML references and what that imports statically, never a dynamic import", () => {
    const html = `<html><head><link rel="modulepreload" href="/assets/entry.js"/><link rel="modulepreload" href="/assets/shared.js"/></head>
      <body><script type="module">import "/assets/entry.js";</script></body></html>`;
    const visit = measureFirstVisit(clientDir, html, "https://paydesk.local/task");
    expect(visit.files.map((f) => f.file).sort()).toEqual(["/assets/entry.js", "/assets/shared.js"]);
    expect(visit.totalGzip).toBe(gzip("entry.js") + gzip("shared.js"));
    // Imported statically but never preloaded: a request the page makes late, named so it is fixed.
    expect(visit.unreferencedStaticImports).toEqual(["/assets/forgotten.js"]);
  });

  it("refuses a page whose HTML references no script", () => {
    expect(() => measureFirstVisit(clientDir, "<html><body>hi</body></html>", "https://paydesk.local/")).toThrow(/references no/);
  });
});
