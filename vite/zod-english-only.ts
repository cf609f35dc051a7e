/**
 * The origin's build takes zod's English messages alone. `@hono/zod-openapi` hands zod's
 * namespace object to `extendZodWithOpenApi(z)`, and a namespace passed as a value keeps every
 * export, `z.locales` with it: the bundler then had to keep all of zod's 60-odd locales
 * (about 190 KB) although the origin never sets one. Its English default is imported by
 * zod's schemas on their own (`v4/classic/schemas.js`), so `z.locales` here holds `en` alone.
 * Only the origin's build is changed (docs/decisions/045-origin-without-zod-locales.md).
 */
import type { Plugin } from "vite";

const localesIndex = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;

export function zodEnglishOnly(environment: string): Plugin {
  return {
    name: "paydesk:zod-english-only",
    apply: "build",
    applyToEnvironment: (candidate) => candidate.name === environment,
    load(id) {
      return localesIndex.test(id) ? 'export { default as en } from "./en.js";\n' : null;
    },
  };
}
