import { createContext } from "react-router";
import { defaultLanguage, type Language } from "./i18n/languages";

/** The CSP nonce of the response being rendered; the edge worker sets it per request. */
export const cspNonceContext = createContext<string>("");

/** The language the edge picked for this request (`lang` cookie, else Accept-Language). */
export const languageContext = createContext<Language>(defaultLanguage);

/**
 * Where the server reports an error it cannot handle: the edge worker sets its own reporter
 * (Sentry, loaded only where a DSN is configured); by default nothing is reported.
 */
export const reportErrorContext = createContext<(error: unknown) => void>(() => {});
