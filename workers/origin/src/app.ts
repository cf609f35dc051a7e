import * as Sentry from "./error-reporting";
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { type AccessKeys, accessCheck } from "./ops/access-check";
import { isOperatorNoLongerActing, operatorNoLongerActing } from "./ops/operator-acts-as-read";
import { accountLocked, isLockRefusal } from "./auth/signed-in-user";
import { type WechatPayOf, wechatPayOnFirstUse } from "./wechat-pay/on-first-use";
import { ApiError, failure, noRouteError } from "./http/answer";
import { clientMistakeOf, maxBodyBytes } from "./http/client-mistakes";
import { edgeOnly } from "./http/edge-trust";
import { methodGuard } from "./http/method-guard";
import { validationHook } from "./http/validation";
import { ReplayAnswer } from "./idempotency/idempotency";
import type { Clock, OriginEnv } from "./origin-env";
import { routerMounts } from "./routers";

const systemClock: Clock = { now: () => Date.now() };

export const openApiPath = "/api/openapi.json";

/**
 * The origin's HTTP API. Tests pass their own clock so time-based rules need no sleeping,
 * and a short WeChat Pay time-out to see time-outs without waiting for them. `emulation`
 * (the WeChat Pay simulator is bound: `simulatorBound` in wechat-pay/config.ts) adds the
 * payer stand-in routes, which are never part of the published document. With `segment` (a
 * path's first segment under /api, or its first two: `segmentOf` in routers.ts), only the
 * routers of that key are evaluated and mounted (the worker builds one such app per key, on
 * its first request); without it, all of them, and the published document. `wechatPay` shares one WeChat Pay client between the
 * apps of one isolate.
 */
export async function createOriginApp({
  clock = systemClock,
  wechatPayTimeoutMs,
  emulation = false,
  accessKeys,
  segment,
  wechatPay,
}: {
  clock?: Clock;
  wechatPayTimeoutMs?: number;
  emulation?: boolean;
  /** Where Cloudflare Access's signing keys come from; tests pass a local key set. */
  accessKeys?: AccessKeys;
  segment?: string;
  wechatPay?: WechatPayOf;
} = {}) {
  const mounts = routerMounts.filter((m) => (emulation || !m.emulationOnly) && (segment === undefined || m.segments.includes(segment)));
  const routers = await Promise.all(mounts.map(async ({ at, load }) => ({ at, router: await load() })));
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
  const wechatPayOf = wechatPay ?? wechatPayOnFirstUse(clock, wechatPayTimeoutMs === undefined ? {} : { timeoutMs: wechatPayTimeoutMs });
  app.use(async (c, next) => {
    c.set("clock", clock);
    c.set("wechatPay", () => wechatPayOf(c.env));
    await next();
  });
  // It guards only /api/ops/*, so it is registered with the middleware, before any router.
  app.use("/api/ops/*", accessCheck(accessKeys));
  for (const { at, router } of routers) app.route(at, router);

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
  let published: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  if (segment === undefined)
    app.get(openApiPath, async (c) => {
      // Loaded with the first request for the document, not with every isolate.
      const { publishedDocument } = await import("./openapi/published-document");
      published ??= publishedDocument(
        app.getOpenAPI31Document({
          openapi: "3.1.0",
          info: {
            title: "Paydesk origin API",
            version: "1",
            license: { name: "Proprietary" },
            description:
              "The API the Paydesk edge worker proxies under /api/*. Every answer is the envelope {code, data?, message?, field?}. " +
              "A method a path does not list is answered 405 METHOD_NOT_ALLOWED with an Allow header naming those it does. " +
              "An operator's action whose operator lost the role it was asked under, or was locked, before it committed is answered 403 FORBIDDEN, and nothing of it is done.",
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
    // An operator demoted or locked while their action was under way (migration 0036).
    if (isOperatorNoLongerActing(error)) return failure(c, operatorNoLongerActing());
    const mistake = error instanceof HTTPException ? clientMistakeOf(error.status) : undefined;
    if (mistake) return failure(c, mistake);
    // Anything else is a bug or an outage: log and report it, answer without details.
    console.error("Unhandled origin error", error);
    Sentry.captureException(error);
    return failure(c, new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Please try again."));
  });
  return app;
}

export type OriginApp = Awaited<ReturnType<typeof createOriginApp>>;
