import type { z } from "zod";
import { passwordSignInAnswerSchema, type registerBodySchema, type SignInAnswer, type signInBodySchema } from "#contract/account";
import type { UserInfo } from "#contract/user-info";
import { postApi, unwrap } from "./client";

// The sign-in page's calls, imported only by what its submit runs (a part fetched on first
// use, app/account/login-actions.client.ts), which brings the schema the parse below needs.
// The session's own calls live apart in ./session: the start-up's chunk loads no schema.

export async function register(body: z.input<typeof registerBodySchema>, idempotencyKey: string): Promise<UserInfo> {
  return unwrap(await postApi<UserInfo>("/api/user/register", body, { idempotencyKey }));
}

/**
 * A new bearer token, its user and this browser's device token; parsed, since the user is
 * shown everywhere from then on. A field this page does not know, or a device token an origin
 * deployed before known devices leaves out, is no reason to refuse a session the origin has
 * made: a page open while the origin and the edge deploy keeps signing in.
 */
export async function signIn(body: z.input<typeof signInBodySchema>): Promise<SignInAnswer & { deviceToken?: string }> {
  return passwordSignInAnswerSchema
    .partial({ deviceToken: true })
    .loose()
    .parse(unwrap(await postApi<unknown>("/api/user/login", body)));
}
