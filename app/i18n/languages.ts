/** The languages every string of the app exists in (issue #4). */
export const languages = ["en", "zh-CN"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "en";

/** The cookie the language switcher sets; the edge reads it before Accept-Language. */
const languageCookie = "lang";
/** `?lang=` on any page: the edge stores the choice in the cookie and redirects to the clean URL. */
export const languageParam = "lang";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

function cookieValue(cookieHeader: string | null, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

/** Any Chinese preference reads Simplified Chinese (the only Chinese we have); otherwise English. */
function fromTag(tag: string): Language | null {
  const lower = tag.trim().toLowerCase();
  if (lower === "zh" || lower.startsWith("zh-")) return "zh-CN";
  if (lower === "en" || lower.startsWith("en-")) return "en";
  return null;
}

/** The languages of an Accept-Language header, most preferred first (q=0 means "not this"). */
function acceptedLanguages(header: string | null): Language[] {
  return (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { language: fromTag(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.language !== null && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.language as Language);
}

/**
 * Browsers send a handful of distinct Accept-Language headers, and the edge reads one on every
 * page request: each short header is parsed once (a bounded memo; a long one every time).
 */
const preferredByHeader = new Map<string, Language>();

function preferredLanguage(header: string | null): Language {
  const memo = header !== null && header.length <= 200;
  const known = memo ? preferredByHeader.get(header) : undefined;
  if (known) return known;
  const language = acceptedLanguages(header)[0] ?? defaultLanguage;
  if (memo) {
    if (preferredByHeader.size >= 256) preferredByHeader.clear();
    preferredByHeader.set(header, language);
  }
  return language;
}

/** The `lang` cookie when it names a language we have, else the browser's preference, else English. */
export function pickLanguage(headers: Headers): Language {
  const cookies = headers.get("Cookie");
  if (cookies !== null) {
    const chosen = cookieValue(cookies, languageCookie);
    if (isLanguage(chosen)) return chosen;
  }
  return preferredLanguage(headers.get("Accept-Language"));
}

/** A year; the choice is a preference, not a secret (readable by scripts on purpose). */
export function languageCookieHeader(language: Language, secure: boolean): string {
  return `${languageCookie}=${language}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}
