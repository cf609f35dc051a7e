import { env } from "cloudflare:workers";
import { createOriginApp } from "../src/app";

/** An origin app on a clock the test moves, and helpers to call it like a client. */
export function testOrigin(start = Date.parse("2026-11-01T00:00:00Z")) {
  let now = start;
  const app = createOriginApp({ clock: { now: () => now } });
  const call = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {}) =>
    app.request(
      path,
      {
        method: init.method ?? "POST",
        headers: { "Content-Type": "application/json", ...init.headers },
        body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      },
      env,
    );
  return {
    app,
    call,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

export async function resetDatabase(): Promise<void> {
  await env.DB.batch(
    ["session", "account", "user", "sign_in_failure", "sign_in_lock", "idempotency"].map((table) =>
      env.DB.prepare(`DELETE FROM ${table}`),
    ),
  );
}
