/**
 * The parts of Sentry's SDK this worker uses, imported only by error-reporting.ts, and
 * only dynamically: a dynamic import keeps every export of the module it names, so it
 * names this one rather than the whole SDK.
 */
export { captureException, captureMessage, withSentry } from "@sentry/cloudflare";
