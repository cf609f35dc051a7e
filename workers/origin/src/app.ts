import * as Sentry from "./error-reporting";
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { adminRoutes } from "./admin/admin-routes";
import { type AccessKeys, accessCheck } from "./ops/access-check";
import { accountControlRoutes } from "./ops/account-control-routes";
import { auditRoutes } from "./ops/audit-routes";
import { ledgerDeskRoutes } from "./ops/ledger-desk-routes";
import { orderDeskRoutes } from "./ops/order-desk-routes";
import { wechatAskRoutes } from "./ops/wechat-ask-routes";
import { overviewRoutes } from "./ops/overview-routes";
import { peopleRoutes } from "./ops/people-routes";
import { refundRoutes } from "./refunds/refund-routes";
import { codeBatchRoutes } from "./ops/code-batch-routes";
import { opsRoutes } from "./ops/ops-routes";
import { ticketDeskRoutes } from "./ops/ticket-desk-routes";
import { accountRoutes } from "./auth/account-routes";
import { recoveryRoutes } from "./auth/recovery-routes";
import { passwordRoutes } from "./account/password-routes";
import { profileRoutes } from "./account/profile-routes";
import { recoveryCodeRoutes } from "./account/recovery-code-routes";
import { sessionRoutes } from "./account/session-routes";
import { recoveryLinkRoutes } from "./ops/recovery-link-routes";
import { passkeyRoutes } from "./passkeys/passkey-routes";
import { passkeySignInRoutes } from "./passkeys/passkey-sign-in-routes";
import { accountLocked, isLockRefusal } from "./auth/signed-in-user";
import { codeRoutes } from "./codes/code-routes";
import { orderPayRoutes } from "./orders/order-pay-routes";
import { orderRoutes } from "./orders/order-routes";
import { wechatConfigRoutes } from "./wechat-pay/config-routes";
import { emulationRoutes } from "./wechat-pay/emulation/emulation-routes";
import { wechatPayFactory } from "./wechat-pay/factory";
import { notifyRoutes } from "./wechat-pay/notify/notify-routes";
import { claimRoutes } from "./tasks/claim-routes";
import { taskRoutes } from "./tasks/task-routes";
import { supportRoutes } from "./support/support-routes";
import { transferRoutes } from "./transfers/transfer-routes";
import { userRoutes } from "./users/user-routes";
import { walletRoutes } from "./ledger/wallet-routes";
import { receiptRoutes } from "./receipts/receipt-routes";
import { ApiError, failure, noRouteError } from "./http/answer";
import { clientMistakeOf, maxBodyBytes } from "./http/client-mistakes";
import { edgeOnly } from "./http/edge-trust";
import { healthRoutes } from "./http/health-routes";
import { methodGuard } from "./http/method-guard";
import { validationHook } from "./http/validation";
import { ReplayAnswer } from "./idempotency/idempotency";
import { publishedDocument } from "./openapi/published-document";
import type { Clock, OriginEnv } from "./origin-env";

const systemClock: Clock = { now: () => Date.now() };

export const openApiPath = "/api/openapi.json";

/**
 * The origin's HTTP API. Tests pass their own clock so time-based rules need no sleeping,
 * and a short WeChat Pay time-out to see time-outs without waiting for them. `emulation`
 * (the WeChat Pay simulator is bound: `simulatorBound` in wechat-pay/config.ts) adds the
 * payer stand-in routes, which are never part of the published document.
 */
export function createOriginApp({
  clock = systemClock,
  wechatPayTimeoutMs,
  emulation = false,
  accessKeys,
}: {
  clock?: Clock;
  wechatPayTimeoutMs?: number;
  emulation?: boolean;
  /** Where Cloudflare Access's signing keys come from; tests pass a local key set. */
  accessKeys?: AccessKeys;
} = {}) {
  // The router Hono's default (SmartRouter) settles on for these routes: its RegExpRouter cannot
  // hold them all (it refuses /api/account/sessions/end-others and the passkeys' /{id}/rename,
  // among others), and building it first cost every isolate's first request before it fell
  // back (docs/decisions/030-cold-start.md; app-router.test.ts keeps this true).
  const app = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook, router: new TrieRouter() });
  // Only the edge is answered, and only the edge is believed about the client's address.
  app.use(edgeOnly);
  // A client's mistake is a clear 4xx in the envelope, never a 500 (docs/api-contract.md):
  // a known path with another method is 405 with Allow, a body is read no further than the limit.
  app.use(
    "/api/*",
    methodGuard(app, (c, methods) =>
      failure(
        c,
        new ApiError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`, undefined, {
          Allow: methods.join(", "),
        }),
      ),
    ),
  );
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => failure(c, new ApiError("PAYLOAD_TOO_LARGE", `The body is larger than ${maxBodyBytes / 1024} KB.`)),
    }),
  );
  const wechatPayOf = wechatPayFactory(clock, wechatPayTimeoutMs === undefined ? {} : { timeoutMs: wechatPayTimeoutMs });
  app.use(async (c, next) => {
    c.set("clock", clock);
    c.set("wechatPay", () => wechatPayOf(c.env));
    await next();
  });
  app.route("/api", healthRoutes);
  app.route("/api/user", accountRoutes);
  app.route("/api/user", recoveryRoutes);
  app.route("/api/account", profileRoutes);
  app.route("/api/account", passwordRoutes);
  app.route("/api/account", sessionRoutes);
  app.route("/api/account", recoveryCodeRoutes);
  app.route("/api/user", passkeySignInRoutes);
  app.route("/api/account/passkeys", passkeyRoutes);
  app.route("/api/users", userRoutes);
  app.route("/api/codes", codeRoutes);
  app.route("/api/transfers", transferRoutes);
  app.route("/api/wallet", walletRoutes);
  app.route("/api/receipts", receiptRoutes);
  app.route("/api/orders", orderPayRoutes);
  app.route("/api/orders", orderRoutes);
  app.route("/api/payments/wechat", wechatConfigRoutes);
  app.route("/api/payments/wechat", notifyRoutes);
  if (emulation) app.route("/api/payments/wechat/simulator", emulationRoutes);
  app.route("/api", claimRoutes);
  app.route("/api/tasks", taskRoutes);
  app.route("/api/support", supportRoutes);
  app.route("/api/admin", adminRoutes);
  app.use("/api/ops/*", accessCheck(accessKeys));
  app.route("/api/ops", opsRoutes);
  app.route("/api/ops/overview", overviewRoutes);
  app.route("/api/ops/people", peopleRoutes);
  app.route("/api/ops/orders", orderDeskRoutes);
  app.route("/api/ops/orders", wechatAskRoutes);
  app.route("/api/ops", auditRoutes);
  app.route("/api/ops/people", accountControlRoutes);
  app.route("/api/ops/recovery-links", recoveryLinkRoutes);
  app.route("/api/ops", refundRoutes);
  app.route("/api/ops/tickets", ticketDeskRoutes);
  app.route("/api/ops/code-batches", codeBatchRoutes);
  app.route("/api/ops/ledger", ledgerDeskRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });
  app.openAPIRegistry.registerComponent("securitySchemes", "operatorSession", {
    type: "http",
    scheme: "bearer",
    description: "The session token of an account holding an operator role; anyone else hears 404, as for an unknown path",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "operatorAuth", {
    type: "http",
    scheme: "bearer",
    description: "The ADMIN_TOKEN secret",
  });
  // The contract, generated from the schemas the routes validate with and completed with what
  // every operation shares (docs/api-contract.md). Built once: the routes do not change.
  let published: ReturnType<typeof publishedDocument> | undefined;
  app.get(openApiPath, (c) => {
    published ??= publishedDocument(
      app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "Paydesk origin API",
          version: "1",
          license: { name: "Proprietary" },
          description:
            "The API the Paydesk edge worker proxies under /api/*. Every answer is the envelope {code, data?, message?, field?}. " +
            "A method a path does not list is answered 405 METHOD_NOT_ALLOWED with an Allow header naming those it does.",
        },
        servers: [{ url: "/", description: "The edge worker's host: it forwards /api/* to this origin unchanged" }],
      }),
    );
    return c.json(published);
  });

  app.notFound((c) => failure(c, noRouteError(c)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return failure(c, error);
    if (error instanceof ReplayAnswer) return error.response;
    // A lock that committed while the request was under way (migration 0017's triggers).
    if (isLockRefusal(error)) return failure(c, accountLocked());
    const mistake = error instanceof HTTPException ? clientMistakeOf(error.status) : undefined;
    if (mistake) return failure(c, mistake);
    // Anything else is a bug or an outage: log and report it, answer without details.
    console.error("Unhandled origin error", error);
    Sentry.captureException(error);
    return failure(c, new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Please try again."));
  });
  return app;
}

export type OriginApp = ReturnType<typeof createOriginApp>;
