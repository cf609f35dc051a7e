/** GET /api/payments/wechat/config: whether WeChat Pay is offered here, so the pages offer it or not. */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { wechatPayConfigAnswerSchema } from "#contract/payments";
import { jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";

const config = createRoute({
  method: "get",
  path: "/config",
  summary: "Whether WeChat Pay is offered here, and with which flows",
  responses: { 200: jsonContent(successEnvelope(wechatPayConfigAnswerSchema), "WeChat Pay's availability") },
});

export const wechatConfigRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });

wechatConfigRoutes.openapi(config, async (c) => {
  const wechat = await c.var.wechatPay();
  return c.json(
    {
      code: "SUCCESS" as const,
      data: {
        configured: wechat !== null,
        flows: wechat?.flows ?? [],
        jsapiAppId: wechat?.flows.includes("jsapi") ? wechat.appid : null,
        simulator: wechat?.simulator != null,
      },
    },
    200,
  );
});
