/**
 * README.md, docs/ and the code's comments name files and folders; a rename must not leave
 * them pointing at nothing. Every path-like name under a top-level folder of this repo is
 * checked against the working tree (globs by the part before the first wildcard).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const topLevel = ["app", "bench", "contract", "docs", "public", "scripts", "test", "workers", ".ci"];
const pathLike = new RegExp(`(?<![\\w./#@-])(?:${topLevel.map((dir) => dir.replace(".", "\\.")).join("|")})/[\\w./*\\[\\]-]*`, "g");

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return (
    (readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .map((name) => path.join(dir, name))
      // Not the repo's files: packages, and what a build or typegen writes (git-ignored; bench/anchor's live in the tree).
      .filter(
        (file) =>
          !file.split(path.sep).some((part) => ["node_modules", "build", "build-twin", ".react-router", ".wrangler"].includes(part)) &&
          keep(file),
      )
  );
}

/** Path-like names in `text`, cut at a wildcard or placeholder and without trailing punctuation. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(pathLike)]
    .map(([match]) => match.split(/[*[]/)[0]?.replace(/[.,:;)]+$/, "") ?? "")
    .filter((name) => name.includes("/") && !name.endsWith("/."));
}

/**
 * A module may be named without its extension; a git-ignored name is made at run time (.dev.vars,
 * bench results), a git-ignored directory too (a build): git matches a directory's pattern only
 * to a name that ends in a slash.
 */
function exists(name: string): boolean {
  if (["", ".ts", ".tsx"].some((extension) => existsSync(path.join(root, name + extension)))) return true;
  const ignored = (candidate: string) => spawnSync("git", ["check-ignore", "-q", "--no-index", candidate], { cwd: root }).status === 0;
  return ignored(name) || ignored(`${name}/`);
}

/** The comments of a source file (its strings name fixtures and URLs, not the repo's files). */
function commentsOf(file: string, text: string): string {
  const comment = /\.(sql)$/.test(file) ? /--[^\n]*/g : /\.toml$/.test(file) ? /#[^\n]*/g : /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return [...text.matchAll(comment)].map(([match]) => match).join("\n");
}

function missingIn(files: string[], { commentsOnly = false } = {}): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(path.join(root, file), "utf8");
    return namedPaths(commentsOnly ? commentsOf(file, text) : text)
      .filter((name) => !exists(name))
      .map((name) => `${file}: ${name}`);
  });
}

describe("paths named in the docs and comments", () => {
  it("README.md and docs/ name only paths that exist", () => {
    expect(missingIn(["README.md", ...filesUnder("docs", (file) => file.endsWith(".md"))])).toEqual([]);
  });

  it("the code's comments name only paths that exist", () => {
    const code = topLevel
      .filter((dir) => dir !== "docs" && existsSync(path.join(root, dir)))
      .flatMap((dir) => filesUnder(dir, (file) => /\.(tsx?|js|css|sql|toml)$/.test(file)))
      // This file names a missing path on purpose.
      .filter((file) => file !== path.relative(root, import.meta.filename));
    expect(code.length).toBeGreaterThan(50);
    expect(missingIn([...code, "wrangler.toml", "vite.config.ts", "vitest.config.ts"], { commentsOnly: true })).toEqual([]);
  });

  it("point inside the repo: nothing names the product notes kept outside it", () => {
    const texts = ["README.md", ...filesUnder("docs", (file) => file.endsWith(".md"))].concat(
      topLevel
        .filter((dir) => dir !== "docs" && existsSync(path.join(root, dir)))
        .flatMap((dir) => filesUnder(dir, (file) => /\.(tsx?|js|css|sql|toml|md)$/.test(file))),
    );
    const outside = texts.filter((file) =>
      /PRODUCT\.md|STYLE\.md|\.\.\/shared\/|shared\/reference/.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(outside.filter((file) => file !== path.relative(root, import.meta.filename))).toEqual([]);
  });

  it("finds a path that is gone", () => {
    expect(namedPaths(commentsOf("x.ts", 'const s = "app/x"; // see docs/decisions/no-such-record.md, and workers/edge/*.ts'))).toEqual([
      "docs/decisions/no-such-record.md",
      "workers/edge/",
    ]);
    expect(existsSync(path.join(root, "docs/decisions/no-such-record.md"))).toBe(false);
  });
});
