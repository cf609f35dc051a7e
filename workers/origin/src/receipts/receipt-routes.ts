import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { receiptParamsSchema, receiptSchema } from "#contract/receipts";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { findReceipt } from "./receipt-rows";

const receipt = createRoute({
  method: "get",
  path: "/{kind}/{id}",
  summary:
    "The receipt of a transfer, an order's payment, a refund (an operator's, or a WeChat Pay payment's automatic one: the payment's `refund.id` on its order) or a task's reward, for the people its money moved between",
  security: bearerAuth,
  request: { params: receiptParamsSchema },
  responses: {
    200: jsonContent(successEnvelope(receiptSchema), "The receipt"),
    400: errorContent("BAD_REQUEST: not a receipt kind or id (field names it)"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND: there is no such receipt, or it is not about the signed-in person (field id)"),
  },
});

export const receiptRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
receiptRoutes.use("*", signedInUser);

receiptRoutes.openapi(receipt, async (c) => {
  const { kind, id } = c.req.valid("param");
  const found = await findReceipt(c.env.DB, c.var.user.id, kind, id);
  // Someone else's receipt is not found either: 404, never 403, so ids reveal nothing.
  if (!found) throw new ApiError("NOT_FOUND", "There is no such receipt.", "id");
  return c.json({ code: "SUCCESS" as const, data: found }, 200);
});
