import { ApiError } from "../http/answer";

/**
 * The back office's page cursors: opaque to clients (base64 without padding, as
 * `pageCursorSchema` states), each naming the list it belongs to, so that a cursor of one
 * list, or one this API never gave, is refused (400, field cursor) rather than misread.
 */
type Part = "string" | "number";
type Position<S extends readonly Part[]> = { [K in keyof S]: S[K] extends "string" ? string : number };

const notOurs = () => new ApiError("BAD_REQUEST", "The cursor is not one this API gave.", "cursor");

export function cursorOf(list: string, position: readonly (string | number)[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify([list, ...position]));
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}

/** Where a cursor of `list` points, each part of the type `shape` names. */
export function positionOf<const S extends readonly Part[]>(cursor: string, list: string, shape: S): Position<S> {
  let parsed: unknown;
  try {
    const bytes = Uint8Array.from(atob(cursor), (character) => character.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    throw notOurs();
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length + 1 || parsed[0] !== list) throw notOurs();
  const position = parsed.slice(1);
  const fits = shape.every((type, index) =>
    type === "number" ? Number.isSafeInteger(position[index]) : typeof position[index] === "string",
  );
  if (!fits) throw notOurs();
  return position as Position<S>;
}
