import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { recipientQuerySchema, recipientSchema } from "#contract/transfers";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";

const lookup = createRoute({
  method: "get",
  path: "/lookup",
  summary: "Find a user by handle, to confirm a recipient (display name only)",
  security: bearerAuth,
  request: { query: recipientQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(recipientSchema), "The user's handle and display name"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("RECIPIENT_NOT_FOUND"),
  },
});

export const userRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
userRoutes.use("/lookup", signedInUser, doorLimit("lookup"));

userRoutes.openapi(lookup, async (c) => {
  const { handle } = c.req.valid("query");
  const found = await c.env.DB.prepare("SELECT handle, display_name FROM user WHERE handle = ?1")
    .bind(handle)
    .first<{ handle: string; display_name: string }>();
  if (!found) throw new ApiError("RECIPIENT_NOT_FOUND", "No Paydesk user has that handle.", "handle");
  return c.json({ code: "SUCCESS" as const, data: { handle: found.handle, displayName: found.display_name } }, 200);
});
