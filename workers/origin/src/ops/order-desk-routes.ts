import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { opsOrderIdParamSchema, orderSearchPageSchema, orderSearchQuerySchema, orderStorySchema } from "#contract/ops-orders";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { operatorWith } from "./operator-access";
import { searchOrders } from "./order-search";
import { orderStory } from "./order-story";
import { cursorOf, positionOf } from "./page-cursor";
import { forbiddenUnless } from "./route-answers";

/** The order desk (docs/decisions/014-back-office-desks.md): read-only, for support and up. */
const search = createRoute({
  method: "get",
  path: "/",
  summary: "Find orders by id, out_trade_no, WeChat Pay transaction id, person, status, kind and date, newest first (support and up)",
  security: operatorSession,
  request: { query: orderSearchQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(orderSearchPageSchema), "A page of orders, newest first"),
    400: errorContent("BAD_REQUEST: a query field is not valid (field names it)"),
    403: forbiddenUnless("readPeople: support and up"),
    404: errorContent("NOT_FOUND: no person has the handle in person (field person), or not signed in as an operator"),
  },
});

const story = createRoute({
  method: "get",
  path: "/{id}",
  summary: "An order's whole story: the order and its person, status history, payment attempts, WeChat Pay notifications, refunds",
  security: operatorSession,
  request: { params: opsOrderIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(orderStorySchema), "The order's story"),
    400: errorContent("BAD_REQUEST: not an order id (field id)"),
    403: forbiddenUnless("readPeople: support and up"),
    404: errorContent("NOT_FOUND: there is no such order, or not signed in as an operator"),
  },
});

const ordersList = "orders";

export const orderDeskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
orderDeskRoutes.use("*", operatorWith("readPeople"));

orderDeskRoutes.openapi(search, async (c) => {
  const { q, status, kind, person, from, to, cursor } = c.req.valid("query");
  const after = cursor === undefined ? null : positionOf(cursor, ordersList, ["number", "string"]);
  const found = await searchOrders(c.env.DB, {
    q,
    status,
    kind,
    person,
    from: from === undefined ? undefined : Date.parse(from),
    to: to === undefined ? undefined : Date.parse(to),
    after: after && { createdAt: after[0], id: after[1] },
  });
  const nextCursor = found.next ? cursorOf(ordersList, [found.next.createdAt, found.next.id]) : null;
  return c.json({ code: "SUCCESS" as const, data: { orders: found.orders, nextCursor } }, 200);
});

orderDeskRoutes.openapi(story, async (c) => {
  const found = await orderStory(c.env.DB, c.req.valid("param").id, c.var.operator.userId);
  if (!found) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  return c.json({ code: "SUCCESS" as const, data: found }, 200);
});
