import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from "react-router";
import { ServerDocumentProvider } from "./components/server-document";
import { assetWatchSource } from "./startup/asset-watch.server";
import { pageStyles } from "./styles/page-styles.server";
import { provideLayoutMessages } from "./i18n/layout-messages";
import { jsonBlockText } from "./startup/json-block";
import { layoutCatalogue } from "./messages/layout.server";
import { passkeyMarkSource } from "./startup/passkey-mark.server";
import { tokenMarkSource } from "./startup/token-mark.server";
import { zodJitlessSource } from "./startup/zod-jitless.server";
import { cspNonceContext, languageContext, reportErrorContext } from "./server-context";
import { languages } from "./i18n/languages";

export const streamTimeout = 5_000;

// The server renders every language (app/i18n/layout-messages.ts).
provideLayoutMessages(layoutCatalogue);

/** What a page's <head> carries besides its styles: the same text for every page of a language, so built once. */
const headOf = new Map(
  languages.map((language) => [
    language,
    {
      headScript: zodJitlessSource + tokenMarkSource + passkeyMarkSource + assetWatchSource(language),
      layoutMessages: jsonBlockText(layoutCatalogue[language]),
    },
  ]),
);

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const nonce = loadContext.get(cspNonceContext);
  const reportError = loadContext.get(reportErrorContext);
  const head = headOf.get(loadContext.get(languageContext));
  if (!head) throw new Error(`no page head for language ${loadContext.get(languageContext)}`);
  let shellRendered = false;
  const body = await renderToReadableStream(
    <ServerDocumentProvider value={{ nonce, headScript: head.headScript, styles: pageStyles, layoutMessages: head.layoutMessages }}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </ServerDocumentProvider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors in the shell reject and reach handleError; these are later ones.
        if (shellRendered) reportError(error);
      },
    },
  );
  shellRendered = true;

  // Crawlers get the complete document in one piece.
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/** Loader, action and render errors on the server go to the edge's reporter (Sentry, when a DSN is set). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.get(reportErrorContext)(error);
};
