/**
 * POST /api/payments/wechat/sign-in and /sign-in/complete: inside WeChat, JSAPI's payer
 * openid from WeChat's own silent sign-in (docs/decisions/073-wechat-payer-sign-in.md). The
 * state ties WeChat's code to the person who started the sign-in; it is good once, for ten
 * minutes.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import {
  wechatSignInAnswerSchema,
  wechatSignInBodySchema,
  wechatSignInCompleteAnswerSchema,
  wechatSignInCompleteBodySchema,
  wechatSignInStatusSchema,
} from "#contract/payments";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { signedInUser } from "../../auth/signed-in-user";
import * as Sentry from "../../error-reporting";
import { ApiError } from "../../http/answer";
import { validationHook } from "../../http/validation";
import { doorLimit } from "../../limits/door-limit";
import { pageOriginsOf } from "../../passkeys/relying-party";
import type { OriginEnv } from "../../origin-env";
import { findPayableOrder } from "../../orders/payable-order";
import type { WechatPay } from "../config";
import { findPayerOpenid, savePayerOpenid, saveSignInState } from "./payer-rows";
import { authorizeUrl, exchangeCode } from "./web-authorization";

/** How long a sign-in may take: WeChat's code lives five minutes, the page's round trip far less. */
export const signInLifetimeMs = 10 * 60_000;

const status = createRoute({
  method: "get",
  path: "/sign-in",
  summary: "Inside WeChat: whether WeChat's sign-in has given JSAPI this person's openid",
  description: "When it has not, the page starts the sign-in (POST) before asking for a JSAPI payment.",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(wechatSignInStatusSchema), "Whether JSAPI can pay for this person now"),
    401: errorContent("UNAUTHENTICATED"),
    422: errorContent("WECHAT_PAY_NOT_CONFIGURED, or WECHAT_PAY_FLOW_NOT_AVAILABLE: JSAPI is not offered here"),
  },
});

const start = createRoute({
  method: "post",
  path: "/sign-in",
  summary: "Inside WeChat: start WeChat's sign-in, which gives JSAPI the payer's openid",
  description:
    "Answers WeChat's authorize page. Sent there, WeChat returns the browser at once, asking nothing (snsapi_base), to the order's " +
    "payment page on the request's Origin (one of the deploy's WEBAUTHN_ORIGINS) with `code` and `state`; the page then calls " +
    "POST /api/payments/wechat/sign-in/complete. The state is good once, for ten minutes, and only for whoever started it.",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: wechatSignInBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(wechatSignInAnswerSchema), "WeChat's authorize page for this sign-in"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    403: errorContent("FORBIDDEN: the request's Origin is not one of this deploy's pages"),
    404: errorContent("NOT_FOUND: no such order of yours"),
    422: errorContent("WECHAT_PAY_NOT_CONFIGURED, or WECHAT_PAY_FLOW_NOT_AVAILABLE: JSAPI is not offered here"),
  },
});

const complete = createRoute({
  method: "post",
  path: "/sign-in/complete",
  summary: "Inside WeChat: finish WeChat's sign-in with the code WeChat returned, keeping the payer's openid for JSAPI",
  description:
    "Swaps WeChat's code for the person's openid for the merchant's appid, and keeps it: JSAPI payments ask WeChat Pay with it. " +
    "A state that is unknown, used, expired or someone else's, a code WeChat refuses (invalid, used or timed out), and a " +
    "snapshot page's stand-in openid answer WECHAT_SIGN_IN_EXPIRED, keeping nothing: start the sign-in again. " +
    "WeChat not answering clearly answers WECHAT_PAY_UNAVAILABLE and leaves the state as it was, so the same code and state may be sent again.",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: wechatSignInCompleteBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(wechatSignInCompleteAnswerSchema), "The payer's openid is known"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    422: errorContent("WECHAT_SIGN_IN_EXPIRED, WECHAT_PAY_NOT_CONFIGURED or WECHAT_PAY_FLOW_NOT_AVAILABLE"),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: WeChat did not answer clearly; the same request may be sent again"),
  },
});

export const signInRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
signInRoutes.use("/sign-in", signedInUser);
signInRoutes.on("POST", "/sign-in", doorLimit("orders"));
signInRoutes.use("/sign-in/complete", signedInUser, doorLimit("orders"));

/** WeChat Pay with JSAPI offered (which takes an AppSecret), or the refusal. */
async function jsapiOffered(wechatPay: () => Promise<WechatPay | null>): Promise<WechatPay> {
  const wechat = await wechatPay();
  if (!wechat) throw new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here.");
  if (!wechat.flows.includes("jsapi") || !wechat.appSecret) {
    throw new ApiError("WECHAT_PAY_FLOW_NOT_AVAILABLE", "WeChat Pay's jsapi flow is not offered here.");
  }
  return wechat;
}

/** The page's origin, when it is one this deploy serves pages from. */
function pageOriginOf(given: string | undefined, env: Env): string | null {
  return given && pageOriginsOf(env).includes(given) ? given : null;
}

function newState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

signInRoutes.openapi(status, async (c) => {
  const wechat = await jsapiOffered(c.var.wechatPay);
  const openid = await findPayerOpenid(c.env.DB, c.var.user.id, wechat.appid);
  return c.json({ code: "SUCCESS" as const, data: { signedIn: openid !== null } }, 200);
});

signInRoutes.openapi(start, async (c) => {
  const { orderId } = c.req.valid("json");
  const wechat = await jsapiOffered(c.var.wechatPay);
  const pageOrigin = pageOriginOf(c.req.header("Origin"), c.env);
  if (!pageOrigin) throw new ApiError("FORBIDDEN", "WeChat's sign-in returns only to this deploy's own pages.");
  if (!(await findPayableOrder(c.env.DB, orderId, c.var.user.id))) throw new ApiError("NOT_FOUND", "There is no such order.");
  const now = c.var.clock.now();
  const state = newState();
  await saveSignInState(c.env.DB, { state, userId: c.var.user.id, appid: wechat.appid, createdAt: now, expiresAt: now + signInLifetimeMs });
  const back = `${pageOrigin}/wechat_pay?order=${encodeURIComponent(orderId)}`;
  return c.json({ code: "SUCCESS" as const, data: { url: authorizeUrl(wechat, back, state, pageOrigin) } }, 200);
});

const signInExpired = () =>
  new ApiError("WECHAT_SIGN_IN_EXPIRED", "This WeChat sign-in is unknown, used or expired, or WeChat refused its code. Start it again.");

signInRoutes.openapi(complete, async (c) => {
  const { code, state } = c.req.valid("json");
  const wechat = await jsapiOffered(c.var.wechatPay);
  const now = c.var.clock.now();
  // Taken, not read: a second use of the state (a reload, a replay) finds nothing.
  const taken = await c.env.DB.prepare(
    "DELETE FROM wechat_sign_in WHERE state = ?1 AND user_id = ?2 AND appid = ?3 AND expires_at > ?4 RETURNING created_at, expires_at",
  )
    .bind(state, c.var.user.id, wechat.appid, now)
    .first<{ created_at: number; expires_at: number }>();
  if (!taken) throw signInExpired();
  const exchanged = await exchangeCode(wechat, code);
  if (exchanged.outcome === "code_refused") throw signInExpired();
  if (exchanged.outcome === "unavailable") {
    // WeChat may not have used the code: the same state may try again, within its lifetime.
    await saveSignInState(c.env.DB, {
      state,
      userId: c.var.user.id,
      appid: wechat.appid,
      createdAt: taken.created_at,
      expiresAt: taken.expires_at,
    });
    console.error("WeChat's sign-in code exchange failed", exchanged.reason);
    Sentry.captureMessage(`WeChat's sign-in code exchange failed: ${exchanged.reason}`, "warning");
    throw new ApiError("WECHAT_PAY_UNAVAILABLE", "WeChat did not answer clearly. Please try again.");
  }
  await savePayerOpenid(c.env.DB, c.var.user.id, wechat.appid, exchanged.openid, now).run();
  return c.json({ code: "SUCCESS" as const, data: { signedIn: true as const } }, 200);
});
