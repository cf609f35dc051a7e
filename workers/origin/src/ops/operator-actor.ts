import type { Context } from "hono";
import type { OriginEnv } from "../origin-env";
import type { AuditActor } from "./audit";

/** The signed-in operator as the audit trail names them: their user id and their role at the time. */
export function operatorActor(c: Context<OriginEnv>): AuditActor {
  return { kind: "operator", userId: c.var.operator.userId, role: c.var.operator.role };
}

/** The signed-in operator as a request names who asked for or decided it. */
export function operatorName(c: Context<OriginEnv>): { handle: string; displayName: string } {
  return { handle: c.var.operator.handle, displayName: c.var.operator.displayName };
}

/** The edge's request id, kept in the audit row to find the request in the logs. */
export function requestIdOf(c: Context<OriginEnv>): string | null {
  return c.req.header("X-Request-Id") ?? null;
}
