import type { Hono } from "hono";
import type { OriginEnv } from "./origin-env";

/**
 * One router of the origin, evaluated on first use: a cold isolate evaluates (and builds the
 * zod schemas of) only the routers its first request can reach, not all of them. The build
 * keeps every router in the worker's one file (vite/origin-chunks.ts): `load` runs the
 * router's modules and fetches nothing (docs/decisions/041-origin-routers-on-first-use.md).
 */
export type RouterMount = {
  /** Where the router is mounted (`app.route(at, router)`). */
  at: string;
  /**
   * The keys of the paths it serves: a path's first segment under /api, or its first two
   * where a segment's routers are split further (`segmentOf`).
   */
  segments: string[];
  /** Only where the WeChat Pay simulator is bound (wechat-pay/config.ts `simulatorBound`). */
  emulationOnly?: boolean;
  load: () => Promise<Hono<OriginEnv>>;
};

function mount(at: string, load: RouterMount["load"], segments = [at.split("/")[2] ?? ""], emulationOnly = false): RouterMount {
  return { at, segments, load, ...(emulationOnly ? { emulationOnly } : {}) };
}

/**
 * Every router, in the order it is mounted: Hono tries routes in that order, and the
 * published document lists them in it. A router mounted at `/api` itself, or one of a segment
 * split further, names its keys; the test beside this file holds every router to its keys.
 */
export const routerMounts: RouterMount[] = [
  mount("/api", async () => (await import("./http/health-routes")).healthRoutes, ["health"]),
  mount("/api", async () => (await import("./deploy-limits/limits-routes")).limitsRoutes, [
    "limits",
    "locks",
    "time-limits",
    "task-limits",
    "text-limits",
  ]),
  mount("/api/user", async () => (await import("./auth/account-routes")).accountRoutes),
  // Apart from the session call every visit starts with, which needs neither.
  mount("/api/user", async () => (await import("./auth/recovery-routes")).recoveryRoutes, ["user/recover", "user/recover-with-link"]),
  mount("/api/account", async () => (await import("./account/profile-routes")).profileRoutes),
  mount("/api/account", async () => (await import("./account/password-routes")).passwordRoutes),
  mount("/api/account", async () => (await import("./account/session-routes")).sessionRoutes),
  mount("/api/account", async () => (await import("./account/device-routes")).deviceRoutes),
  mount("/api/account", async () => (await import("./account/recovery-code-routes")).recoveryCodeRoutes),
  // WebAuthn's schemas are evaluated only for a passkey's requests.
  mount("/api/user", async () => (await import("./passkeys/passkey-sign-in-routes")).passkeySignInRoutes, ["user/passkey"]),
  mount("/api/account/passkeys", async () => (await import("./passkeys/passkey-routes")).passkeyRoutes, ["account/passkeys"]),
  mount("/api/users", async () => (await import("./users/user-routes")).userRoutes),
  mount("/api/codes", async () => (await import("./codes/code-routes")).codeRoutes),
  mount("/api/transfers", async () => (await import("./transfers/transfer-routes")).transferRoutes),
  mount("/api/wallet", async () => (await import("./ledger/wallet-routes")).walletRoutes),
  mount("/api/receipts", async () => (await import("./receipts/receipt-routes")).receiptRoutes),
  mount("/api/orders", async () => (await import("./orders/order-pay-routes")).orderPayRoutes),
  mount("/api/orders", async () => (await import("./orders/order-routes")).orderRoutes),
  mount("/api/payments/wechat", async () => (await import("./wechat-pay/config-routes")).wechatConfigRoutes),
  mount("/api/payments/wechat", async () => (await import("./wechat-pay/notify/notify-routes")).notifyRoutes),
  mount("/api/payments/wechat", async () => (await import("./wechat-pay/payer-sign-in/sign-in-routes")).signInRoutes),
  mount(
    "/api/payments/wechat/simulator",
    async () => (await import("./wechat-pay/emulation/emulation-routes")).emulationRoutes,
    undefined,
    true,
  ),
  mount("/api", async () => (await import("./tasks/claim-routes")).claimRoutes, ["tasks", "claims"]),
  mount("/api/tasks", async () => (await import("./tasks/task-routes")).taskRoutes),
  mount("/api/support", async () => (await import("./support/support-routes")).supportRoutes),
  mount("/api/admin", async () => (await import("./admin/admin-routes")).adminRoutes),
  mount("/api/ops", async () => (await import("./ops/ops-routes")).opsRoutes),
  mount("/api/ops/overview", async () => (await import("./ops/overview-routes")).overviewRoutes),
  mount("/api/ops/people", async () => (await import("./ops/people-routes")).peopleRoutes),
  mount("/api/ops/orders", async () => (await import("./ops/order-desk-routes")).orderDeskRoutes),
  mount("/api/ops/orders", async () => (await import("./ops/wechat-ask-routes")).wechatAskRoutes),
  mount("/api/ops", async () => (await import("./ops/audit-routes")).auditRoutes),
  mount("/api/ops/people", async () => (await import("./ops/account-control-routes")).accountControlRoutes),
  mount("/api/ops/recovery-link-requests", async () => (await import("./ops/recovery-link-routes")).recoveryLinkRoutes),
  mount("/api/ops/role-requests", async () => (await import("./ops/role-request-routes")).roleRequestRoutes),
  mount("/api/ops", async () => (await import("./refunds/refund-routes")).refundRoutes),
  mount("/api/ops", async () => (await import("./refunds/failed-refund-routes")).failedRefundRoutes),
  mount("/api/ops/wechat-refund-settlements", async () => (await import("./refunds/settlement-request-routes")).settlementRequestRoutes),
  mount("/api/ops/tickets", async () => (await import("./ops/ticket-desk-routes")).ticketDeskRoutes),
  mount("/api/ops/code-batches", async () => (await import("./ops/code-batch-routes")).codeBatchRoutes),
  mount("/api/ops/code-batch-requests", async () => (await import("./ops/code-batch-request-routes")).codeBatchRequestRoutes),
  mount("/api/ops/ledger", async () => (await import("./ops/ledger-desk-routes")).ledgerDeskRoutes),
];

const knownSegments = new Set(routerMounts.flatMap((m) => m.segments));

/**
 * The key of the routers a request to `path` can reach: its first two segments under /api
 * where routers are listed for them, else its first, else none (every other path is the
 * envelope's 404). Unknown segments all share the empty answer, so that made-up paths cannot
 * grow the set of apps an isolate keeps.
 */
export function segmentOf(path: string): string {
  const [root, api, first = "", second] = path.split("/");
  if (root !== "" || api !== "api") return "";
  if (second !== undefined && knownSegments.has(`${first}/${second}`)) return `${first}/${second}`;
  return knownSegments.has(first) ? first : "";
}
