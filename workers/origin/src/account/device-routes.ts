/**
 * A person's known devices (docs/decisions/069-known-devices-listed.md): the browsers that have
 * proved the password and are still known, and forgetting one. A forgotten device's token
 * counts as a stranger's from then on (docs/decisions/061-known-devices.md).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { accountDevicesSchema, deviceIdParamSchema, devicesForgottenSchema } from "#contract/account-safety";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { hashToken, requiredBearerToken } from "../auth/bearer-token";
import { knownDeviceLifetimeMs, knownDevicesPerPerson } from "../auth/known-devices";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
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
  summary: "Forget one of my known devices: its failed sign-ins count against my handle again, as a stranger's",
  security: bearerAuth,
  request: { params: deviceIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(devicesForgottenSchema), "The device forgotten"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND: no known device of mine has that id"),
  },
});

/** A device's public id: a prefix of its token's hash, which names no token and cannot be turned back into one. */
const idDigits = 32;
const deviceId = (tokenHash: string) => `dev_${tokenHash.slice(0, idDigits)}`;

type DeviceRow = { token_hash: string; user_agent: string | null; created_at: number; last_used_at: number };

export const deviceRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
deviceRoutes.use("/devices", signedInUser);
deviceRoutes.use("/devices/:id/forget", signedInUser, doorLimit("account"));

deviceRoutes
  .openapi(listDevices, async (c) => {
    const knownAfter = c.var.clock.now() - knownDeviceLifetimeMs;
    const currentHash = await hashToken(requiredBearerToken(c.req.header("Authorization")));
    // known_device_user (user_id, last_used_at); a person keeps at most knownDevicesPerPerson.
    const [listed, session] = await c.env.DB.batch([
      c.env.DB.prepare(
        `SELECT token_hash, user_agent, created_at, last_used_at FROM known_device
         WHERE user_id = ?1 AND last_used_at > ?2 ORDER BY last_used_at DESC, rowid DESC LIMIT ?3`,
      ).bind(c.var.user.id, knownAfter, knownDevicesPerPerson),
      c.env.DB.prepare("SELECT device_hash FROM session WHERE token_hash = ?1").bind(currentHash),
    ]);
    const currentDevice = (session?.results[0] as { device_hash: string | null } | undefined)?.device_hash ?? null;
    const devices = ((listed?.results ?? []) as DeviceRow[]).map((row) => ({
      id: deviceId(row.token_hash),
      device: deviceLabel(row.user_agent),
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: new Date(row.last_used_at).toISOString(),
      current: row.token_hash === currentDevice,
    }));
    return c.json({ code: "SUCCESS" as const, data: { devices } }, 200);
  })
  .openapi(forgetDevice, async (c) => {
    const { id } = c.req.valid("param");
    const prefix = id.slice("dev_".length);
    // The hash's first digits name one device: 128 bits of a SHA-256 do not meet twice. A
    // device past its lifetime is forgotten already, whatever the cron has yet to delete.
    const forgotten = await c.env.DB.prepare(
      "DELETE FROM known_device WHERE user_id = ?1 AND substr(token_hash, 1, ?2) = ?3 AND last_used_at > ?4",
    )
      .bind(c.var.user.id, idDigits, prefix, c.var.clock.now() - knownDeviceLifetimeMs)
      .run();
    // Another person's device is as unknown as one that never was.
    if (forgotten.meta.changes !== 1) throw new ApiError("NOT_FOUND", "You have no known device with that id.", "id");
    return c.json({ code: "SUCCESS" as const, data: { devicesForgotten: 1 } }, 200);
  });
