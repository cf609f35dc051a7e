import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name));
const index = readFileSync(path.join(dir, "README.md"), "utf8");

describe("decision records", () => {
  it("exist", () => expect(records.length).toBeGreaterThan(0));

  it.each(records)("%s has a Date and a Status, and is in the index", (name) => {
    const text = readFileSync(path.join(dir, name), "utf8");
    expect(text).toMatch(/^- Date: \d{4}-\d{2}-\d{2}$/m);
    expect(text).toMatch(/^- Status: (proposed|accepted|superseded by \d{3})$/m);
    expect(index).toContain(`](${name})`);
  });
});
