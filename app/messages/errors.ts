import type { ErrorCode } from "#contract/error-codes";
import type { Language } from "../i18n/languages";

/**
 * What the user reads for each error code of the contract (docs/api-contract.md: one
 * catalogue), one module per language. Neither is part of a page's first load: start-up
 * fetches the page's language once the page is interactive (prefetchErrorMessages), and a
 * message is only needed once something has been refused.
 */
type ErrorCatalogue = Record<ErrorCode, string>;
type CatalogueModule = { default: ErrorCatalogue; partNeedsReload: string };

const catalogues: Record<Language, () => Promise<CatalogueModule>> = {
  en: () => import("./errors/en"),
  "zh-CN": () => import("./errors/zh-CN"),
};

/** When even the catalogue cannot be fetched, the network is what failed. */
const unreachable: Record<Language, string> = {
  en: "Paydesk is not reachable right now. Check your connection and try again.",
  "zh-CN": "暂时无法连接 Paydesk。请检查网络后重试。",
};

const loaded = new Map<Language, Promise<CatalogueModule>>();

function catalogue(language: Language): Promise<CatalogueModule> {
  let pending = loaded.get(language);
  if (!pending) {
    pending = catalogues[language]();
    // A failed fetch is not remembered: the next refusal tries again.
    pending.catch(() => loaded.delete(language));
    loaded.set(language, pending);
  }
  return pending;
}

/** Start-up fetches the page's catalogue ahead of the first refusal (docs/start-up.md). */
export function prefetchErrorMessages(language: Language): void {
  catalogue(language).catch(() => {});
}

/** What an answer said beside its code, and what the page knows that a message may state. */
export type Refusal = {
  /** The origin's own words: English, shown for a field's refusal in English. */
  originMessage?: string;
  field?: string;
  /** A 429's `Retry-After`. */
  retryAfterSeconds?: number;
  /** The day's transfer limit in force, in fen (app/money-limits.ts); the product's by default. */
  dailyLimit?: number;
};

/**
 * The message for an answer's code. A field-level message from the origin is specific and
 * safe to show, but it is English; other languages get the catalogue's. A refusal that names
 * how long to wait (a lock, a limit) says it, in the page's language, and the day's transfer
 * limit is the one the page was given.
 */
export async function messageFor(code: ErrorCode, language: Language, refusal: Refusal = {}): Promise<string> {
  const { originMessage, field, retryAfterSeconds, dailyLimit } = refusal;
  if (language === "en" && code === "BAD_REQUEST" && field && originMessage) return originMessage;
  try {
    const message = (await catalogue(language)).default[code];
    if (message.includes("{dailyLimit}")) {
      // Fetched with the refusal that needs them, as the words for a wait are: not in the entry.
      const [{ formatMoney }, { defaultLimits }] = await Promise.all([import("../i18n/format"), import("#contract/money-limits")]);
      return message.replace("{dailyLimit}", formatMoney(dailyLimit ?? defaultLimits.transfer.perDay, language));
    }
    if (!message.includes("{wait}")) return message;
    const { waitText } = await import("./errors/wait");
    return message.replace("{wait}", waitText(retryAfterSeconds, language));
  } catch {
    return unreachable[language];
  }
}

/** For a form whose code cannot come until the page is reloaded (PartNeedsReload, app/startup/on-first-use.ts). */
export async function partNeedsReloadMessage(language: Language): Promise<string> {
  try {
    return (await catalogue(language)).partNeedsReload;
  } catch {
    return unreachable[language];
  }
}

const retryableCodes = new Set<ErrorCode>([
  "REQUEST_TIMEOUT",
  "ORIGIN_UNAVAILABLE",
  "ORIGIN_TIMEOUT",
  "INTERNAL_ERROR",
  "IDEMPOTENCY_KEY_IN_USE",
  "PAYMENT_STARTING",
  "TASK_CHANGED",
  "ROLE_CHANGED",
  "WECHAT_PAY_UNAVAILABLE",
]);

/** A refusal that will not change if the same request is sent again: the form needs a new key. */
export function isDefiniteRefusal(code: ErrorCode): boolean {
  return !retryableCodes.has(code);
}
