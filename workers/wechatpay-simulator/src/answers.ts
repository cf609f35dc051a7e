/** What the imitated APIs answer before the dispatch signs it, and the routes they offer. */
import type { z } from "zod";
import type { SimulatorCore } from "./core";
import { paramError } from "./validation";

export type Answer = { status: number; body: unknown | null; signed: boolean };

/** An authenticated /v3 request: its body parsed (POST) and its path's one parameter decoded. */
export type ApiRequest = { mchid: string; url: URL; body: unknown; param: string };

export type ApiRoute = {
  method: "GET" | "POST";
  /** Anchored; at most one capture group, handed to `answer` decoded as `param`. */
  path: RegExp;
  answer: (core: SimulatorCore, request: ApiRequest) => Answer | Promise<Answer>;
};

/** WeChat Pay signs its business answers, errors included. */
export const ok = (body: unknown, status = 200): Answer => ({ status, body, signed: true });

export const errorAnswer = (status: number, code: string, message: string, detail?: unknown): Answer => ({
  status,
  body: detail === undefined ? { code, message } : { code, message, detail },
  signed: true,
});

export function invalidBody(issue: z.ZodError): Answer {
  const { message, detail } = paramError(issue);
  return errorAnswer(400, "PARAM_ERROR", message, detail);
}
