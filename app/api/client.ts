import type { Envelope, ErrorCode } from "#contract/envelope";

export type ApiPath = `/api/${string}`;

export type ApiCall = { token?: string | null; idempotencyKey?: string; fetch?: typeof globalThis.fetch };

/** An answer as the browser reads it: the envelope, and for a 429 how long to wait (its `Retry-After`). */
type Answer<T> = Envelope<T> & { retryAfterSeconds?: number };

async function callApi<T>(
  method: "GET" | "POST",
  path: ApiPath,
  body: unknown,
  { token, idempotencyKey, fetch = globalThis.fetch }: ApiCall,
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (method === "POST") headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  try {
    // Same-origin (the edge proxies /api/*): cookies go along by default.
    const response = await fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    const answer = (await response.json()) as Answer<T>;
    const wait = retryAfterOf(response);
    if (wait !== undefined) answer.retryAfterSeconds = wait;
    return answer;
  } catch {
    return { code: "ORIGIN_UNAVAILABLE" };
  }
}

/** A 429's wait: its `Retry-After` in whole seconds, or undefined (another answer, or no number). */
export function retryAfterOf(response: Response): number | undefined {
  if (response.status !== 429) return undefined;
  const wait = Number(response.headers.get("Retry-After") ?? Number.NaN);
  return Number.isFinite(wait) && wait >= 0 ? wait : undefined;
}

/**
 * The browser's client of the origin contract (through the edge's /api/* proxy).
 * Never throws: a network failure or a non-JSON answer becomes ORIGIN_UNAVAILABLE.
 */
export function postApi<T>(path: ApiPath, body: unknown, call: ApiCall = {}): Promise<Answer<T>> {
  return callApi<T>("POST", path, body, call);
}

function getApi<T>(path: ApiPath, call: ApiCall = {}): Promise<Answer<T>> {
  return callApi<T>("GET", path, undefined, call);
}

/** A refused call, thrown by the signed-in API so a loader can say why it has no data. */
export class ApiFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly field?: string,
    readonly originMessage?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
    this.name = "ApiFailure";
  }
}

export type SignedInApi = {
  get<T>(path: ApiPath): Promise<T>;
  post<T>(path: ApiPath, body: unknown, idempotencyKey?: string): Promise<T>;
};

/** The data of a successful answer; a refusal throws ApiFailure with the contract's code. */
export function unwrap<T>(answer: Answer<T>): T {
  if (answer.code === "SUCCESS") return answer.data;
  throw new ApiFailure(answer.code, answer.field, answer.message, answer.retryAfterSeconds);
}

/** Calls as one user; a refusal throws ApiFailure with the contract's code. */
export function signedInApi(token: string, fetch?: typeof globalThis.fetch): SignedInApi {
  return {
    get: async (path) => unwrap(await getApi(path, { token, fetch })),
    post: async (path, body, idempotencyKey) => unwrap(await postApi(path, body, { token, idempotencyKey, fetch })),
  };
}
