import { ApiError } from "./answer";

/** Every API body fits in 64 KB (the longest is a 4,000-character message); larger is refused unread. */
export const maxBodyBytes = 64 * 1024;

/**
 * Hono and its validators throw HTTPException for what the client got wrong before any
 * route ran: a body that is not JSON (400), not declared as JSON (415), too large (413).
 * Each becomes its code in the envelope; any other status is not the client's mistake.
 */
export function clientMistakeOf(status: number): ApiError | undefined {
  switch (status) {
    case 400:
      return new ApiError("BAD_REQUEST", "The request body is not valid JSON.");
    case 413:
      return new ApiError("PAYLOAD_TOO_LARGE", `The body is larger than ${maxBodyBytes / 1024} KB.`);
    case 415:
      return new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON, with Content-Type: application/json.");
    default:
      return undefined;
  }
}
