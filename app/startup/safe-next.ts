/**
 * Where to go after signing in: a same-site path only. `//host` and `/\host` are
 * protocol-relative to browsers and would make the sign-in page an open redirect.
 */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  try {
    const url = new URL(next, "https://paydesk.invalid");
    return url.origin === "https://paydesk.invalid" ? url.pathname + url.search + url.hash : "/";
  } catch {
    return "/";
  }
}
