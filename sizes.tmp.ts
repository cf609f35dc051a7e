import { measureSizes } from "./bench/sizes.ts";
const page = process.argv[2] ?? "/";
const html = await (await fetch(`http://127.0.0.1:18788${page}`, { headers: { Cookie: "lang=en" } })).text();
const sizes = measureSizes("build/client", html, `http://127.0.0.1:18788${page}`);
console.log(page, "firstVisit gzip KB", (sizes.firstVisit.totalGzip / 1024).toFixed(1), "files", sizes.firstVisit.files.length);
for (const f of [...sizes.firstVisit.files].sort((a, b) => b.gzip - a.gzip)) console.log((f.gzip / 1024).toFixed(1).padStart(7), f.file);
console.log(
  "routes >",
  [...sizes.routes]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 8)
    .map((r) => `${r.routeId} ${(r.gzip / 1024).toFixed(1)}`)
    .join(", "),
);
