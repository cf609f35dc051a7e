/**
 * A person's known devices (docs/decisions/069-known-devices-listed.md): the browsers that have
 * proved the password and are still known, and forgetting one. A forgotten device's token
 * counts as a stranger's from then on (docs/decisions/061-known-devices.md).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { accountDevicesSchema, deviceIdParamSchema, devicesForgottenSchema, forgetDeviceBodySchema } from "#contract/account-safety";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { knownDeviceLifetimeMs, knownDevicesPerPerson } from "../auth/known-devices";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { checkCurrentPassword } from "./account-password";
import { deviceLabel } from "./device-label";

const listDevices = createRoute({
  method: "get",
  path: "/devices",
  summary: "My known devices (browsers that have proved my password), most recently used first, this one marked",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(accountDevicesSchema), "The devices still known"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const forgetDevice = createRoute({
  method: "post",
  path: "/devices/{id}/forget",
  summary: "Forget one of my known devices, with my password: its failed sign-ins count against my handle again, as a stranger's",
  security: bearerAuth,
  request: {
    params: deviceIdParamSchema,
    body: { content: { "application/json": { schema: forgetDeviceBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(devicesForgottenSchema), "The device forgotten"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND: no known device of mine has that id"),
    422: errorContent("WRONG_PASSWORD (field password)"),
  },
});

type DeviceRow = { id: string; user_agent: string | null; created_at: number; last_use: number; current: 0 | 1 };

export const deviceRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
deviceRoutes.use("/devices", signedInUser);
// No Idempotency-Key: its record would keep a fast hash of the body, and so of the password.
// Forgetting twice is a 404 the second time, which changes nothing.
deviceRoutes.use("/devices/:id/forget", signedInUser, doorLimit("accountSecurity"));

deviceRoutes
  .openapi(listDevices, async (c) => {
    const currentHash = c.var.sessionHash;
    // The device's own time moves at most once a day while its sessions are used (decision
    // 061): the last use shown is the later of it and that of the sessions it opened, ended
    // ones too (a device signed out of was used until then).
    // known_device_user (user_id, last_used_at); the person's sessions by user_id.
    const { results } = await c.env.DB.prepare(
      `SELECT k.id, k.user_agent, k.created_at,
         max(k.last_used_at, coalesce(
           (SELECT max(s.last_used_at) FROM session s WHERE s.user_id = ?1 AND s.device_hash = k.token_hash),
           0)) AS last_use,
         k.token_hash IS (SELECT device_hash FROM session WHERE token_hash = ?4) AS current
       FROM known_device k
       WHERE k.user_id = ?1 AND k.last_used_at > ?2
       ORDER BY last_use DESC, k.rowid DESC LIMIT ?3`,
    )
      .bind(c.var.user.id, c.var.clock.now() - knownDeviceLifetimeMs, knownDevicesPerPerson, currentHash)
      .all<DeviceRow>();
    const devices = results.map((row) => ({
      id: row.id,
      device: deviceLabel(row.user_agent),
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: new Date(row.last_use).toISOString(),
      current: row.current === 1,
    }));
    return c.json({ code: "SUCCESS" as const, data: { devices } }, 200);
  })
  .openapi(forgetDevice, async (c) => {
    const { id } = c.req.valid("param");
    await checkCurrentPassword(c.env.DB, c.var.user.id, c.req.valid("json").password, "password");
    // A device past its lifetime is forgotten already, whatever the cron has yet to delete.
    const forgotten = await c.env.DB.prepare("DELETE FROM known_device WHERE user_id = ?1 AND id = ?2 AND last_used_at > ?3")
      .bind(c.var.user.id, id, c.var.clock.now() - knownDeviceLifetimeMs)
      .run();
    // Another person's device is as unknown as one that never was.
    if (forgotten.meta.changes !== 1) throw new ApiError("NOT_FOUND", "You have no known device with that id.", "id");
    return c.json({ code: "SUCCESS" as const, data: { devicesForgotten: 1 } }, 200);
  });
