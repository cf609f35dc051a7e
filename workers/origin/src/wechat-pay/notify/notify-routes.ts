/**
 * The public paths WeChat Pay posts its notifications to: outside the pages' contract
 * (WeChat Pay's own format), documented for the operators who register them.
 */
import * as Sentry from "../../error-reporting";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { jsonContent } from "#contract/openapi";
import { validationHook } from "../../http/validation";
import type { OriginEnv } from "../../origin-env";
import { notReceived, receiveNotification } from "./receive-notification";

export const notifyRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });

async function notificationRoute(c: Context<OriginEnv>): Promise<Response> {
  try {
    return await receiveNotification(c);
  } catch (error) {
    // Not stored or not acted on: WeChat Pay must send it again.
    console.error("A WeChat Pay notification could not be handled", error);
    Sentry.captureException(error);
    return notReceived(500);
  }
}

notifyRoutes.post("/notify", notificationRoute);
notifyRoutes.post("/refund-notify", notificationRoute);

// Documented for operators (they register the URL at WeChat Pay); the body is WeChat Pay's
// own signed envelope, read raw, so these routes validate it themselves.
const notificationEnvelope = z.looseObject({
  id: z.string(),
  create_time: z.string(),
  event_type: z.string(),
  resource_type: z.string(),
  resource: z.looseObject({ algorithm: z.string(), ciphertext: z.string(), nonce: z.string(), associated_data: z.string().optional() }),
});
const failAnswer = z.strictObject({ code: z.literal("FAIL"), message: z.string() });
for (const [path, what] of [
  ["/notify", "payment (TRANSACTION.SUCCESS)"],
  ["/refund-notify", "refund (REFUND.SUCCESS | ABNORMAL | CLOSED)"],
] as const) {
  notifyRoutes.openAPIRegistry.registerPath({
    method: "post",
    path,
    summary: `WeChat Pay's ${what} notifications (set WECHATPAY_NOTIFY_URL to …/notify)`,
    description:
      "Called by WeChat Pay, not by pages. Headers Wechatpay-Timestamp, -Nonce, -Serial, -Signature (WECHATPAY2-SHA256-RSA2048 over the raw body). " +
      "204 once stored and acted on (duplicates too); anything else makes WeChat Pay send it again.",
    request: { body: { content: { "application/json": { schema: notificationEnvelope } }, required: true } },
    responses: {
      204: { description: "Received" },
      401: jsonContent(failAnswer, "Signature, timestamp or resource not valid (probe signatures too)"),
      404: jsonContent(failAnswer, "An order or refund Paydesk does not know, or WeChat Pay is not configured here"),
      422: jsonContent(failAnswer, "The amount is not the order's"),
      500: jsonContent(failAnswer, "Not stored; send again"),
    },
  });
}
