/**
 * Where to go after signing in: a same-site path only. `//host` and `/\host` are
 * protocol-relative to browsers and would make the sign-in page an open redirect; they
 * are refused after parsing too, since `/.//host` or `/%2e//host` normalise to `//host`.
 */
export function safeNextPath(next: string | null): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  try {
    const url = new URL(next, "https://paydesk.invalid");
    if (url.origin !== "https://paydesk.invalid" || /^\/[/\\]/.test(url.pathname)) return "/";
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}
