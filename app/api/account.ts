import type { z } from "zod";
import type { registerBodySchema, SignInAnswer, signInBodySchema } from "#contract/account";
import { contractSchemas } from "../contract-schemas";
import type { UserInfo } from "#contract/user-info";
import { postApi, unwrap } from "./client";

// The sign-in page's calls. The session's own calls live apart in ./session, so the
// start-up's chunk never asks for the schemas the parse below needs.

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
  // Fetched before signing in: a session whose answer the page could not read would be one nobody holds.
  const { passwordSignInAnswerSchema } = await contractSchemas();
  return passwordSignInAnswerSchema
    .partial({ deviceToken: true })
    .loose()
    .parse(unwrap(await postApi<unknown>("/api/user/login", body)));
}
