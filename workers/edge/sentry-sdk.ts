/**
 * The parts of Sentry's SDK the edge uses, imported only by error-reporting.ts, and only
 * dynamically: a dynamic import keeps every export of the module it names, so it names this
 * one rather than the whole SDK.
 */
export { captureException, withSentry } from "@sentry/cloudflare";
