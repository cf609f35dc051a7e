import { ApiError } from "../http/answer";

/**
 * A page cursor over rows ordered by a time and their id (the desk's queue, the code
 * batches): the last row's pair, base64 without padding as pageCursorSchema says.
 */
export type TimeIdCursor = { at: number; id: string };

export function encodeTimeIdCursor({ at, id }: TimeIdCursor): string {
  return btoa(`${at}:${id}`).replace(/=+$/, "");
}

/** The cursor's pair, or a 400 naming `cursor` for one this API did not give. */
export function decodeTimeIdCursor(cursor: string): TimeIdCursor {
  try {
    const [at, id, ...rest] = atob(cursor).split(":");
    if (!at || !id || rest.length > 0 || !/^\d{1,16}$/.test(at) || !/^[\w-]{1,64}$/.test(id)) throw new Error("malformed");
    return { at: Number(at), id };
  } catch {
    throw new ApiError("BAD_REQUEST", "The cursor is not one this API gave.", "cursor");
  }
}
