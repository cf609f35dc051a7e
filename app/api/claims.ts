import type { z } from "zod";
import type { Claim, claimListQuerySchema, rejectBodySchema, submitProofBodySchema } from "#contract/tasks";
import { apiPath, withQuery } from "./api-path";
import type { SignedInApi } from "./client";

/** My claims (`mine`; `before` as for tasks), or the submissions to my tasks waiting for my check (`to_check`). */
export function listClaims(api: SignedInApi, query: z.input<typeof claimListQuerySchema>): Promise<Claim[]> {
  return api.get<Claim[]>(withQuery("/api/claims", query));
}

export function submitProof(
  api: SignedInApi,
  id: string,
  body: z.input<typeof submitProofBodySchema>,
  idempotencyKey: string,
): Promise<Claim> {
  return api.post<Claim>(apiPath`/api/claims/${id}/submit`, body, idempotencyKey);
}

/** Gives up a claim not yet submitted: its place reopens for others. */
export function withdrawClaim(api: SignedInApi, id: string, idempotencyKey: string): Promise<Claim> {
  return api.post<Claim>(apiPath`/api/claims/${id}/withdraw`, {}, idempotencyKey);
}

export function approveClaim(api: SignedInApi, id: string, idempotencyKey: string): Promise<Claim> {
  return api.post<Claim>(apiPath`/api/claims/${id}/approve`, {}, idempotencyKey);
}

export function rejectClaim(api: SignedInApi, id: string, body: z.input<typeof rejectBodySchema>, idempotencyKey: string): Promise<Claim> {
  return api.post<Claim>(apiPath`/api/claims/${id}/reject`, body, idempotencyKey);
}
