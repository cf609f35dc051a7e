import * as Sentry from "../error-reporting";
import type { Context } from "hono";

/**
 * Work that need not hold up the answer (a WeChat Pay close or refund the cron would retry
 * anyway): after the answer when the runtime gives an execution context, else (tests calling
 * `app.request`) before it, so its effects can be asserted. Failures are reported, not thrown.
 */
export async function afterAnswer(c: Context, what: string, work: () => Promise<unknown>): Promise<void> {
  const guarded = work().catch((error: unknown) => {
    console.error(`${what} failed`, error);
    Sentry.captureException(error, { tags: { after: what } });
  });
  let context: Pick<ExecutionContext, "waitUntil"> | null = null;
  try {
    context = c.executionCtx;
  } catch {
    context = null;
  }
  if (context) context.waitUntil(guarded);
  else await guarded;
}
