/**
 * Zod compiles a fast parser for each object schema with `new Function`, probing first
 * whether it may. Paydesk's CSP has no 'unsafe-eval', so the probe fails and the browser
 * reports a CSP violation on every page whose modules build a schema. Parsing without it
 * is fast enough for forms.
 *
 * Zod keeps its settings on `globalThis.__zod_globalConfig`, so that every copy of zod on
 * a page shares them (zod/v4/core/core.js), and reads `jitless` as each schema is built,
 * which happens when a route's module is first evaluated: on a landing page, before the
 * browser's entry runs. So the setting is made by the inline script at the top of <head>,
 * before any module; it does what `z.config({ jitless: true })` does, and no zod loads
 * for it. The browser test "no CSP violation" (test/e2e/startup.test.ts) holds zod to it.
 *
 * Kept as source text so the page carries it inline; it must stay ES5-simple.
 */
export const zodJitlessSource = "(globalThis.__zod_globalConfig||(globalThis.__zod_globalConfig={})).jitless=true;";
