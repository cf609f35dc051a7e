/**
 * Client JavaScript and CSS sizes of the build (gzip, level 9, as node:zlib computes it).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const KB = 1024;

export type FileSize = { file: string; bytes: number; gzip: number };

export type RouteChunk = { routeId: string; module: string; bytes: number; gzip: number; sharedWith: string[] };

export type FirstVisit = {
  page: string;
  files: FileSize[];
  totalBytes: number;
  totalGzip: number;
  /** Files the first-visit files import statically that the HTML does not reference (should be none). */
  unreferencedStaticImports: string[];
};

export type Sizes = {
  /** The first visit to `/`, which issue #12's target names. */
  firstVisit: FirstVisit;
  /** The first visit to each other page the bench loads in Lighthouse, read beside it. */
  otherFirstVisits: FirstVisit[];
  routes: RouteChunk[];
  css: { files: FileSize[]; totalBytes: number; totalGzip: number; firstVisit: string[] };
};

const gzipCache = new Map<string, FileSize>();

export function fileSize(clientDir: string, urlPath: string): FileSize {
  const cached = gzipCache.get(urlPath);
  if (cached) return cached;
  const file = path.join(clientDir, urlPath.replace(/^\//, ""));
  if (!existsSync(file)) throw new Error(`${urlPath} is referenced but ${path.relative(process.cwd(), file)} does not exist`);
  const content = readFileSync(file);
  const size = { file: urlPath, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  gzipCache.set(urlPath, size);
  return size;
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "") : null;
}

function assetPath(reference: string, base: string): string | null {
  try {
    const url = new URL(reference, base);
    return url.pathname.startsWith("/assets/") ? url.pathname : null;
  } catch {
    return null;
  }
}

/** Static import specifiers of an ES module (`import … from "x"`, `import "x"`, `export … from "x"`), not `import()`. */
export function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  const re = /(?:^|[;\s}])(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g;
  for (const match of source.matchAll(re)) specifiers.push(match[1]!);
  return specifiers;
}

/** The /assets/*.js and /assets/*.css files a page's HTML references. */
export function referencedAssets(html: string, pageUrl: string): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attribute(tag, "href");
    const asset = href ? assetPath(href, pageUrl) : null;
    if (!asset) continue;
    if (rel.includes("modulepreload") && asset.endsWith(".js")) js.add(asset);
    if (rel.includes("stylesheet") && asset.endsWith(".css")) css.add(asset);
  }
  for (const [, open, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if ((attribute(open!, "type") ?? "").toLowerCase() !== "module") continue;
    const src = attribute(open!, "src");
    const asset = src ? assetPath(src, pageUrl) : null;
    if (asset?.endsWith(".js")) js.add(asset);
    const specifiers = [...staticImports(body!), ...[...body!.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!)];
    for (const specifier of specifiers) {
      const imported = assetPath(specifier, pageUrl);
      if (imported?.endsWith(".js")) js.add(imported);
    }
  }
  return { js: [...js], css: [...css] };
}

type Manifest = {
  entry?: { module: string; imports?: string[] };
  routes: Record<string, { id: string; module: string; imports?: string[]; css?: string[] }>;
};

export function readManifest(clientDir: string, referenced: string[] = []): Manifest {
  const assetsDir = path.join(clientDir, "assets");
  const candidates = referenced.filter((file) => /\/manifest-[^/]*\.js$/.test(file));
  const file =
    candidates[0] ??
    (() => {
      const found = readdirSync(assetsDir).filter((name) => /^manifest-.*\.js$/.test(name));
      if (found.length !== 1) throw new Error(`expected one build/client/assets/manifest-*.js, found ${found.length}`);
      return `/assets/${found[0]}`;
    })();
  const source = readFileSync(path.join(clientDir, file.replace(/^\//, "")), "utf8").trim();
  const prefix = "window.__reactRouterManifest=";
  if (!source.startsWith(prefix)) throw new Error(`${file} does not start with ${prefix}`);
  return JSON.parse(source.slice(prefix.length).replace(/;\s*$/, "")) as Manifest;
}

const sum = (list: { bytes: number; gzip: number }[]) => ({
  totalBytes: list.reduce((n, f) => n + f.bytes, 0),
  totalGzip: list.reduce((n, f) => n + f.gzip, 0),
});

/** The JavaScript a first visit to a page loads: what its HTML references, and what that imports statically. */
export function measureFirstVisit(clientDir: string, html: string, pageUrl: string): FirstVisit {
  return firstVisitOf(clientDir, referencedAssets(html, pageUrl).js, pageUrl);
}

function firstVisitOf(clientDir: string, js: string[], pageUrl: string): FirstVisit {
  if (js.length === 0) throw new Error(`the HTML of ${pageUrl} references no /assets/*.js`);
  const files = js.map((file) => fileSize(clientDir, file)).sort((a, b) => b.gzip - a.gzip);

  // Follow static imports, to catch a chunk the page would load without a modulepreload.
  const seen = new Set(js);
  const queue = [...js];
  const unreferenced: string[] = [];
  while (queue.length) {
    const file = queue.shift()!;
    const source = readFileSync(path.join(clientDir, file.replace(/^\//, "")), "utf8");
    for (const specifier of staticImports(source)) {
      const imported = assetPath(specifier, `http://bench.local${file}`);
      if (!imported?.endsWith(".js") || seen.has(imported)) continue;
      seen.add(imported);
      unreferenced.push(imported);
      queue.push(imported);
    }
  }
  return { page: pageUrl, files, ...sum(files), unreferencedStaticImports: unreferenced };
}

/** The client's sizes: the first visit to `/` (given its HTML) and to other pages, each route's chunk, the CSS. */
export function measureSizes(clientDir: string, home: { html: string; url: string }, otherPages: { html: string; url: string }[]): Sizes {
  const { js, css: firstVisitCss } = referencedAssets(home.html, home.url);
  const firstVisit = firstVisitOf(clientDir, js, home.url);
  const manifest = readManifest(clientDir, js);
  const byModule = new Map<string, string[]>();
  for (const route of Object.values(manifest.routes)) byModule.set(route.module, [...(byModule.get(route.module) ?? []), route.id]);
  const routes = Object.values(manifest.routes).map((route) => {
    const size = fileSize(clientDir, route.module);
    return {
      routeId: route.id,
      module: route.module,
      bytes: size.bytes,
      gzip: size.gzip,
      sharedWith: (byModule.get(route.module) ?? []).filter((id) => id !== route.id),
    };
  });

  const cssFiles = readdirSync(path.join(clientDir, "assets"))
    .filter((name) => name.endsWith(".css"))
    .sort()
    .map((name) => fileSize(clientDir, `/assets/${name}`));

  return {
    firstVisit,
    otherFirstVisits: otherPages.map((page) => measureFirstVisit(clientDir, page.html, page.url)),
    routes,
    css: { files: cssFiles, ...sum(cssFiles), firstVisit: firstVisitCss },
  };
}
