/**
 * A new batch's codes as CSV, for the spreadsheet or the printer that hands them out
 * (RFC 4180: CRLF line ends, a header line). Codes, integers and ISO times need no quoting.
 */
export function codeBatchCsv(codes: string[], value: number, expiresAt: string): string {
  return ["code,value,expires_at", ...codes.map((code) => `${code},${value},${expiresAt}`)].map((line) => `${line}\r\n`).join("");
}
