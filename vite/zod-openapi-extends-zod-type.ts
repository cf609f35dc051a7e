/**
 * The origin's build hands `@hono/zod-openapi` the one part of zod it extends. The library
 * runs `extendZodWithOpenApi(z)` with zod's whole namespace object, and a namespace passed as
 * a value keeps every export: all of zod's locales, its JSON Schema importer, its compiler of
 * fast parsers, every schema the contract never builds. `extendZodWithOpenApi` reads
 * `zod.ZodType` and nothing else (it adds `.openapi()` to its prototype), so the call is
 * given `{ ZodType: z.ZodType }`: the same effect, and the bundler keeps what the origin
 * uses. Only the origin's build is changed; `npm run dev` and the Workers tests run the
 * library as published (docs/decisions/046-zod-openapi-extends-zod-type.md).
 */
import type { Plugin } from "vite";

const zodOpenApi = /[\\/]node_modules[\\/]@hono[\\/]zod-openapi[\\/]dist[\\/]index\.mjs$/;
const extendCall = "extendZodWithOpenApi(z);";

export function zodOpenApiExtendsZodType(environment: string): Plugin {
  return {
    name: "paydesk:zod-openapi-extends-zod-type",
    apply: "build",
    applyToEnvironment: (candidate) => candidate.name === environment,
    transform(code, id) {
      if (!zodOpenApi.test(id)) return null;
      // A release that calls it otherwise must be read again before this is trusted with it.
      if (code.split(extendCall).length !== 2) throw new Error(`${id} no longer calls ${extendCall} once: read it again`);
      return { code: code.replace(extendCall, "extendZodWithOpenApi({ ZodType: z.ZodType });"), map: null };
    },
  };
}
