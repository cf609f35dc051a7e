import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { profileBodySchema } from "#contract/account-safety";
import { userInfoSchema } from "#contract/user-info";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { signedInUser } from "../auth/signed-in-user";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";

const changeProfile = createRoute({
  method: "post",
  path: "/profile",
  summary: "Change my display name (others see it beside my handle)",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: profileBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(userInfoSchema), "The account as it now is"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

export const profileRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
profileRoutes.use("/profile", signedInUser, doorLimit("account"));

profileRoutes.openapi(changeProfile, async (c) => {
  const { displayName } = c.req.valid("json");
  await c.env.DB.prepare("UPDATE user SET display_name = ?1 WHERE id = ?2").bind(displayName, c.var.user.id).run();
  return c.json({ code: "SUCCESS" as const, data: { ...c.var.user, displayName } }, 200);
});
