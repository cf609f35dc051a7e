import { errorAnswer } from "./api-answer";

/** The origin refuses larger bodies anyway (64 KB, docs/api-contract.md); the edge stops reading there. */
export const maxApiBodyBytes = 64 * 1024;
/** A body that has not arrived in full by then is not coming: answer 408 rather than tie up the origin. */
export const bodyDeadlineMs = 2_000;

export type ApiBody = { ok: true; bytes: Uint8Array<ArrayBuffer> | null } | { ok: false; answer: Response };

class BodyDeadline extends Error {
  override name = "BodyDeadline";
}

/**
 * Reads an API request's body before it goes to the origin, so that a client's mistake
 * is answered here at once: 413 past the limit (read no further), 408 when it stalls,
 * 400 when it ends short of its Content-Length or breaks off.
 */
export async function readApiBody(
  request: Request,
  { limit = maxApiBodyBytes, deadlineMs = bodyDeadlineMs }: { limit?: number; deadlineMs?: number } = {},
): Promise<ApiBody> {
  if (request.body === null || request.method === "GET" || request.method === "HEAD") return { ok: true, bytes: null };
  const declaredHeader = request.headers.get("Content-Length");
  const declared = declaredHeader === null ? null : Number(declaredHeader);
  if (declared !== null && !(Number.isSafeInteger(declared) && declared >= 0)) {
    return refuse(request, "BAD_REQUEST", "The Content-Length header is not a length.");
  }
  if (declared !== null && declared > limit) return refuse(request, "PAYLOAD_TOO_LARGE", tooLarge(limit));
  if (declared === 0) return { ok: true, bytes: null };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyDeadline()), deadlineMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel();
        return { ok: false, answer: errorAnswer("PAYLOAD_TOO_LARGE", tooLarge(limit)) };
      }
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    return error instanceof BodyDeadline
      ? { ok: false, answer: errorAnswer("REQUEST_TIMEOUT", `The body did not arrive within ${deadlineMs / 1000} s.`) }
      : { ok: false, answer: errorAnswer("BAD_REQUEST", "The body broke off before it ended.") };
  } finally {
    clearTimeout(timer);
  }
  if (declared !== null && size !== declared)
    return { ok: false, answer: errorAnswer("BAD_REQUEST", "The body is shorter than its Content-Length.") };
  return { ok: true, bytes: concat(chunks, size) };
}

function refuse(request: Request, code: "BAD_REQUEST" | "PAYLOAD_TOO_LARGE", message: string): ApiBody {
  void request.body?.cancel().catch(() => {});
  return { ok: false, answer: errorAnswer(code, message) };
}

const tooLarge = (limit: number) => `The body is larger than ${limit / 1024} KB.`;

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
