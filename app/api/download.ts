/**
 * Downloads of files the origin streams (the statement's CSV, the back office's exports).
 * They need the bearer token, which a plain link cannot carry: the file is fetched with it
 * and handed to the browser as a download.
 */
import type { ErrorCode } from "#contract/error-codes";
import { type ApiPath, retryAfterOf } from "./client";
import { currentToken } from "../session/account-session";

export function saveFile(contents: Blob, filename: string): void {
  const url = URL.createObjectURL(contents);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type DownloadResult = { ok: true } | { ok: false; code: ErrorCode; field?: string; message?: string; retryAfterSeconds?: number };

/** The file saved, or why not: no session, the origin's refusal (its code and field), or no answer. */
export async function downloadWithToken(path: ApiPath, filename: string): Promise<DownloadResult> {
  const token = currentToken();
  if (!token) return { ok: false, code: "UNAUTHENTICATED" };
  try {
    const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) {
      const refusal = (await response.json().catch(() => null)) as { code?: ErrorCode; field?: string; message?: string } | null;
      const wait = retryAfterOf(response);
      return {
        ok: false,
        code: refusal?.code ?? "ORIGIN_UNAVAILABLE",
        ...(refusal?.field ? { field: refusal.field } : {}),
        ...(refusal?.message ? { message: refusal.message } : {}),
        ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
      };
    }
    saveFile(await response.blob(), filename);
    return { ok: true };
  } catch {
    return { ok: false, code: "ORIGIN_UNAVAILABLE" };
  }
}
