/**
 * The import boundaries of docs/architecture.md are Biome rules (biome.json). This runs the
 * repo's own configuration over small files placed where each rule applies, so a loosened
 * rule fails here instead of letting a crossing import in unnoticed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
type Rule = "noRestrictedImports" | "noImportCycles";
type Case = { file: string; source: string; refused: Rule | null };

const cases: Case[] = [
  { file: "contract/imports-react.ts", source: `import { useState } from "react";`, refused: "noRestrictedImports" },
  { file: "contract/imports-hono.ts", source: `import { Hono } from "hono";`, refused: "noRestrictedImports" },
  { file: "contract/tests-with-vitest.test.ts", source: `import { it } from "vitest";\nimport { x } from "./money";`, refused: null },
  { file: "contract/imports-zod.ts", source: `import { z } from "zod";\nimport { minorUnits } from "./money";`, refused: null },
  { file: "app/routes/imports-edge.ts", source: `import { x } from "../../workers/edge/page-cache";`, refused: "noRestrictedImports" },
  { file: "app/routes/imports-origin.ts", source: `import { x } from "#origin/app";`, refused: "noRestrictedImports" },
  { file: "app/routes/contract-by-path.ts", source: `import { x } from "../../contract/orders";`, refused: "noRestrictedImports" },
  { file: "app/routes/contract-by-alias.ts", source: `import { x } from "#contract/orders";`, refused: null },
  { file: "workers/edge/imports-app-by-path.ts", source: `import { x } from "../../app/server-context";`, refused: "noRestrictedImports" },
  { file: "workers/edge/imports-app-by-alias.ts", source: `import { x } from "#app/server-context";`, refused: null },
  { file: "workers/origin/src/imports-app.ts", source: `import { x } from "#app/i18n/languages";`, refused: "noRestrictedImports" },
  {
    file: "workers/origin/src/imports-simulator.ts",
    source: `import { x } from "#wechatpay-simulator/state";`,
    refused: "noRestrictedImports",
  },
  {
    file: "workers/origin/test/signs-with-simulator.ts",
    source: `import { x } from "#wechatpay-simulator/test-only-keys";`,
    refused: null,
  },
  { file: "workers/wechatpay-simulator/src/imports-origin.ts", source: `import { x } from "#origin/app";`, refused: "noRestrictedImports" },
  {
    file: "workers/wechatpay-simulator/src/imports-contract.ts",
    source: `import { x } from "#contract/orders";`,
    refused: "noRestrictedImports",
  },
  { file: "workers/wechatpay-simulator/test/drives-with-client.ts", source: `import { x } from "#origin/app";`, refused: null },
  { file: "workers/origin/src/cycle-a.ts", source: `import { b } from "./cycle-b";\nexport const a = () => b;`, refused: "noImportCycles" },
  { file: "workers/origin/src/cycle-b.ts", source: `import { a } from "./cycle-a";\nexport const b = () => a;`, refused: "noImportCycles" },
];

let workspace = "";
let found = new Map<string, Set<string>>();

beforeAll(() => {
  workspace = mkdtempSync(path.join(tmpdir(), "paydesk-boundaries-"));
  // The repo's configuration as it is; git is off because the fixtures live outside the repo.
  writeFileSync(path.join(workspace, "biome.json"), JSON.stringify({ extends: [path.join(root, "biome.json")], vcs: { enabled: false } }));
  for (const { file, source } of cases) {
    mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    writeFileSync(path.join(workspace, file), `${source}\nexport const used = typeof x;\n`);
  }
  const run = spawnSync(path.join(root, "node_modules", ".bin", "biome"), ["lint", "--reporter=json", "--max-diagnostics=none", "."], {
    cwd: workspace,
    encoding: "utf8",
  });
  const report = JSON.parse(run.stdout) as { diagnostics: { category: string; location: { path: string } }[] };
  found = new Map();
  for (const { category, location } of report.diagnostics) {
    const rules = found.get(location.path) ?? new Set();
    rules.add(category.split("/").pop() ?? category);
    found.set(location.path, rules);
  }
});

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe("import boundaries", () => {
  it.each(cases.filter((c) => c.refused))("refuses $file ($refused)", ({ file, refused }) => {
    expect([...(found.get(file) ?? [])]).toContain(refused);
  });

  it.each(cases.filter((c) => !c.refused))("allows $file", ({ file }) => {
    const rules = [...(found.get(file) ?? [])].filter((rule) => rule === "noRestrictedImports" || rule === "noImportCycles");
    expect(rules).toEqual([]);
  });
});
