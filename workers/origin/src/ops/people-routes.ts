import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { peoplePageSchema, peoplePageSize, peopleSearchQuerySchema, personIdParamSchema, personPageSchema } from "#contract/ops-people";
import { sessionTime } from "../auth/sessions";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { operatorWith } from "./operator-access";
import { opsPersonOf, type PersonRow } from "./ops-rows";
import { cursorOf, positionOf } from "./page-cursor";
import { peopleSearchQuery } from "./people-search";
import { prepared } from "./sql-conditions";
import { personPage } from "./person-page";
import { listedRecoveryLinkRequests } from "./recovery-link-requests";
import { may } from "./roles";
import { forbiddenUnless, notAnOperator } from "./route-answers";

/** The people desk (docs/decisions/014-back-office-desks.md): read-only, for support and up. */
const search = createRoute({
  method: "get",
  path: "/",
  summary: "Find people by the beginning of a handle, a part of a display name, or an id (support and up)",
  security: operatorSession,
  request: { query: peopleSearchQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(peoplePageSchema), "A page of people, by handle"),
    400: errorContent("BAD_REQUEST: q or cursor is not valid (field names it)"),
    403: forbiddenUnless("readPeople: support and up"),
    404: notAnOperator,
  },
});

const page = createRoute({
  method: "get",
  path: "/{id}",
  summary:
    "A person's page: profile, balances, and the newest of their wallet, orders, transfers, tasks, claims, tickets and sessions; their recovery link requests for admins",
  security: operatorSession,
  request: { params: personIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(personPageSchema), "The person's page"),
    400: errorContent("BAD_REQUEST: not a person's id (field id)"),
    403: forbiddenUnless("readPeople: support and up"),
    404: errorContent("NOT_FOUND: no person has that id, or not signed in as an operator"),
  },
});

const peopleList = "people";

export const peopleRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
peopleRoutes.use("*", operatorWith("readPeople"));

peopleRoutes.openapi(search, async (c) => {
  const { q = "", cursor } = c.req.valid("query");
  const after = cursor === undefined ? null : positionOf(cursor, peopleList, ["string"])[0];
  const { results } = await prepared(c.env.DB, peopleSearchQuery({ q, after })).all<PersonRow>();
  const people = results.slice(0, peoplePageSize);
  const last = people.at(-1);
  const nextCursor = results.length > peoplePageSize && last ? cursorOf(peopleList, [last.handle]) : null;
  const openRecoveryLinkRequests = may(c.var.operator.role, "recoveryLink")
    ? await listedRecoveryLinkRequests(c.env.DB, c.var.operator.userId, c.var.clock.now(), { openOnly: true })
    : [];
  return c.json({ code: "SUCCESS" as const, data: { people: people.map(opsPersonOf), nextCursor, openRecoveryLinkRequests } }, 200);
});

peopleRoutes.openapi(page, async (c) => {
  const { id } = c.req.valid("param");
  const now = c.var.clock.now();
  const found = await personPage(c.env.DB, id, sessionTime(c.env, now).liveAfter);
  if (!found) throw new ApiError("NOT_FOUND", "No person has that id.", "id");
  // How an admin checked someone's identity is for admins (docs/decisions/062-recovery-links-need-a-second-admin.md).
  const recoveryLinkRequests = may(c.var.operator.role, "recoveryLink")
    ? await listedRecoveryLinkRequests(c.env.DB, c.var.operator.userId, now, { personId: id })
    : [];
  return c.json({ code: "SUCCESS" as const, data: { ...found, recoveryLinkRequests } }, 200);
});
