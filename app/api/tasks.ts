import type { z } from "zod";
import type { Claim, postedTaskSchema, postTaskBodySchema, Task, taskListQuerySchema } from "#contract/tasks";
import { apiPath, withQuery } from "./api-path";
import type { SignedInApi } from "./client";

type PostedTask = z.infer<typeof postedTaskSchema>;

/** Open tasks of others (`available`), or my own (`posted`; `before`: the id of the oldest I have, for the page before it). */
export function listTasks(api: SignedInApi, query: z.input<typeof taskListQuerySchema>): Promise<Task[]> {
  return api.get<Task[]>(withQuery("/api/tasks", query));
}

/** The task and the order that pays its budget. */
export function postTask(api: SignedInApi, body: z.input<typeof postTaskBodySchema>, idempotencyKey: string): Promise<PostedTask> {
  return api.post<PostedTask>("/api/tasks", body, idempotencyKey);
}

export function cancelTask(api: SignedInApi, id: string, idempotencyKey: string): Promise<Task> {
  return api.post<Task>(apiPath`/api/tasks/${id}/cancel`, {}, idempotencyKey);
}

export function claimTask(api: SignedInApi, taskId: string, idempotencyKey: string): Promise<Claim> {
  return api.post<Claim>(apiPath`/api/tasks/${taskId}/claims`, {}, idempotencyKey);
}
