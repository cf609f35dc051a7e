import type { z } from "zod";
import type { registerBodySchema, SignInAnswer, signInBodySchema } from "#contract/account";
import { signInAnswerSchema } from "../contract.client";
import type { UserInfo } from "#contract/user-info";
import { postApi, unwrap } from "./client";

// The sign-in page's calls. The session's own calls live apart in ./session, so the
// start-up's chunk never carries zod for the parse below.

export async function register(body: z.input<typeof registerBodySchema>, idempotencyKey: string): Promise<UserInfo> {
  return unwrap(await postApi<UserInfo>("/api/user/register", body, { idempotencyKey }));
}

/** A new bearer token and its user; parsed, since the user is shown everywhere from then on. */
export async function signIn(body: z.input<typeof signInBodySchema>): Promise<SignInAnswer> {
  return signInAnswerSchema.parse(unwrap(await postApi<unknown>("/api/user/login", body)));
}
