import { isLanguage, languageCookieHeader, languageParam } from "#app/i18n/languages";
import { safeNextPath } from "#app/session/safe-next";

/**
 * The language switcher is a plain link (`?lang=zh-CN`), so it works before and without
 * JavaScript: the choice goes into the cookie and the visitor lands on the same page,
 * rendered in that language. The redirect itself is never cached. It goes to a path of this
 * site only: `//host?lang=en` keeps `//host` as its path, which a browser would follow to
 * another site.
 */
export function languageChoiceRedirect(url: URL): Response {
  const choice = url.searchParams.get(languageParam);
  const target = new URL(url);
  target.searchParams.delete(languageParam);
  target.searchParams.delete("token");
  const headers = new Headers({ Location: safeNextPath(target.pathname + target.search + target.hash), "Cache-Control": "no-store" });
  if (isLanguage(choice)) headers.set("Set-Cookie", languageCookieHeader(choice, url.protocol === "https:"));
  return new Response(null, { status: 303, headers });
}
