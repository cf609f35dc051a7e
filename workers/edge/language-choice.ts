import { isLanguage, languageCookieHeader, languageParam } from "#app/i18n/languages";

/**
 * The language switcher is a plain link (`?lang=zh-CN`), so it works before and without
 * JavaScript: the choice goes into the cookie and the visitor lands on the same page,
 * rendered in that language. The redirect itself is never cached.
 */
export function languageChoiceRedirect(url: URL): Response {
  const choice = url.searchParams.get(languageParam);
  const target = new URL(url);
  target.searchParams.delete(languageParam);
  target.searchParams.delete("token");
  const headers = new Headers({ Location: target.pathname + target.search + target.hash, "Cache-Control": "no-store" });
  if (isLanguage(choice)) headers.set("Set-Cookie", languageCookieHeader(choice, url.protocol === "https:"));
  return new Response(null, { status: 303, headers });
}
