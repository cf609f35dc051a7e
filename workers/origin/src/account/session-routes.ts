/**
 * A person's sessions (docs/decisions/024-account-safety.md): the live ones, with the device
 * and place each signed in from; end one, or every other.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { accountSessionsSchema, sessionIdParamSchema, sessionsEndedSchema } from "#contract/account-safety";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { sessionTime } from "../auth/sessions";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { deviceLabel } from "./device-label";
import { endSessionsStatements } from "./end-sessions";

const listSessions = createRoute({
  method: "get",
  path: "/sessions",
  summary: "My live sessions, most recently used first, this one marked",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(accountSessionsSchema), "The live sessions"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const endSession = createRoute({
  method: "post",
  path: "/sessions/{id}/end",
  summary: "End one of my sessions (this one too: that signs me out), and my unused sign-in links with it",
  security: bearerAuth,
  request: { params: sessionIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(sessionsEndedSchema), "The session ended"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND: no live session of mine has that id"),
  },
});

const endOthers = createRoute({
  method: "post",
  path: "/sessions/end-others",
  summary: "End every session of mine but this one, and my unused sign-in links",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(sessionsEndedSchema), "How many sessions ended"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

/** A person has few sessions; more than this many live at once are listed only this far. */
const sessionListLimit = 100;

type SessionRow = {
  id: string;
  token_hash: string;
  user_agent: string | null;
  place: string | null;
  created_at: number;
  last_used_at: number;
};

export const sessionRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
sessionRoutes.use("/sessions", signedInUser);
sessionRoutes.use("/sessions/:id/end", signedInUser, doorLimit("account"));
sessionRoutes.use("/sessions/end-others", signedInUser, doorLimit("account"));

sessionRoutes
  .openapi(listSessions, async (c) => {
    const now = c.var.clock.now();
    const currentHash = c.var.sessionHash;
    // session_user_live (user_id, last_used_at DESC) WHERE ended_at IS NULL.
    const { results } = await c.env.DB.prepare(
      `SELECT id, token_hash, user_agent, place, created_at, last_used_at FROM session
       WHERE user_id = ?1 AND ended_at IS NULL AND last_used_at > ?2
       ORDER BY last_used_at DESC LIMIT ?3`,
    )
      .bind(c.var.user.id, sessionTime(c.env, now).liveAfter, sessionListLimit)
      .all<SessionRow>();
    const sessions = results.map((row) => ({
      id: row.id,
      device: deviceLabel(row.user_agent),
      place: row.place,
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: new Date(row.last_used_at).toISOString(),
      current: row.token_hash === currentHash,
    }));
    return c.json({ code: "SUCCESS" as const, data: { sessions } }, 200);
  })
  .openapi(endSession, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.env.DB;
    const now = c.var.clock.now();
    const [ended] = await db.batch([
      db.prepare("UPDATE session SET ended_at = ?1 WHERE id = ?2 AND user_id = ?3 AND ended_at IS NULL").bind(now, id, c.var.user.id),
      // With it go the person's unused sign-in links: a link records no session, and one made
      // from the session being ended (a thief's, say) would open a new one after it. The
      // person's own lose at most 15 minutes: a new link is a click away.
      db
        .prepare(
          `UPDATE sign_in_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL
             AND EXISTS (SELECT 1 FROM session WHERE id = ?3 AND user_id = ?2 AND ended_at = ?1)`,
        )
        .bind(now, c.var.user.id, id),
    ]);
    // Another person's session is as unknown as one that never was.
    if (ended?.meta.changes !== 1) throw new ApiError("NOT_FOUND", "You have no live session with that id.", "id");
    return c.json({ code: "SUCCESS" as const, data: { sessionsEnded: 1 } }, 200);
  })
  .openapi(endOthers, async (c) => {
    const currentHash = c.var.sessionHash;
    const [sessions] = await c.env.DB.batch(
      endSessionsStatements(c.env.DB, c.var.user.id, sessionTime(c.env, c.var.clock.now()), { keepTokenHash: currentHash }),
    );
    return c.json({ code: "SUCCESS" as const, data: { sessionsEnded: sessions?.meta.changes ?? 0 } }, 200);
  });
