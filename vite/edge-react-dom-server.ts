/**
 * The edge's build takes React's streaming renderer alone. `react-dom/server` resolves, under
 * workerd, to React's `server.edge.js`, a CommonJS file that also requires the legacy string
 * renderer (`renderToString`) so that it can export it; the bundler cannot leave out a
 * required CommonJS module, so the edge carried and evaluated 92 KB it never calls.
 * Only the server build of `react-router build` is changed: `npm run dev` and the browser
 * resolve as React publishes them (docs/decisions/037-edge-streaming-renderer-only.md).
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);

export function edgeReactDomServer(serverEnvironment: string): Plugin {
  // The production build that server.edge.js itself requires for renderToReadableStream.
  // (React's package exports do not name it, so it is found beside the package's manifest.)
  const streamingRenderer = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs/react-dom-server.edge.production.js");
  return {
    name: "paydesk:edge-react-dom-server",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === serverEnvironment,
    resolveId(source) {
      return source === "react-dom/server" ? streamingRenderer : null;
    },
  };
}
