import { useEffect, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { Announcer, useFocusOnNavigation } from "./components/announcer";
import { AppFooter } from "./components/app-footer";
import { AppHeader } from "./components/app-header";
import { ChunkFailure } from "./components/chunk-failure";
import { NavigationProgress } from "./components/navigation-progress";
import { useServerDocument } from "./components/server-document";
import { NotFound } from "./components/not-found";
import { LockedAccountNotice } from "./components/locked-account-notice";
import { SignInLinkNotice } from "./components/sign-in-link-notice";
import { pageCacheControl, publicConfig } from "./config.server";
import { isChunkError, CssChunkLoadError } from "./startup/chunk-errors";
import { reportError } from "./startup/error-reporting";
import { publicConfigElementId, serializePublicConfig } from "./startup/public-config";
import { useSession } from "./session/session-state";
import { useStartup } from "./startup/startup-state";
import { languageContext, reportErrorContext } from "./server-context";
import { defaultLanguage } from "./i18n/languages";
import { metaLanguage } from "./i18n/messages";
import { layoutMessagesElementId, layoutMessagesIn, useLayoutMessages } from "./i18n/layout-messages";

export function loader({ context }: Route.LoaderArgs) {
  return { config: publicConfig(context.get(reportErrorContext)), language: context.get(languageContext) };
}

// The root's data (public configuration, language) cannot change within a visit: a
// language switch reloads the document. So form submissions never refetch it.
export function shouldRevalidate() {
  return false;
}

export function links() {
  return [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];
}

export function headers(): HeadersInit {
  return { "Cache-Control": pageCacheControl };
}

export function meta({ matches }: Route.MetaArgs) {
  const text = layoutMessagesIn(metaLanguage(matches));
  return [{ title: "Paydesk" }, { name: "description", content: text.description }];
}

export function Layout({ children }: { children: ReactNode }) {
  const { nonce, headScript, styles, layoutMessages } = useServerDocument();
  const root = useRouteLoaderData<typeof loader>("root");
  const config = root?.config;
  return (
    // The head's token mark sets an attribute before hydration (app/startup/token-mark.server.ts).
    <html lang={root?.language ?? defaultLanguage} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the head script is the server's own source text (app/startup/*.server.ts), run under the CSP nonce. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: headScript }} />
        <script
          type="application/json"
          id={layoutMessagesElementId}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block, never run; jsonBlockText escapes "<" so it cannot close the element.
          dangerouslySetInnerHTML={{ __html: layoutMessages }}
        />
        <Meta />
        {/* The page styles are inline, so the page paints as soon as its HTML has arrived
            (docs/decisions/029-first-paint-and-first-visit.md). Only the server renders them:
            React hydrating <head> passes over an element it does not render, and keeps a
            <style> it does not own when it renders <head> anew (the root's error boundary),
            where a client-made copy would be empty and refused by the CSP. */}
        {styles ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the app's own style sheets, built by Vite (app/styles/page-styles.server.ts), under the CSP nonce.
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: styles }} />
        ) : null}
        {/* Linked stylesheets (the back office's, the receipt's) need no nonce (style-src
            'self'); without one, the browser's nonce hiding cannot make server and client
            attributes differ. */}
        <Links nonce="" />
      </head>
      <body>
        {config ? (
          <script
            type="application/json"
            id={publicConfigElementId}
            suppressHydrationWarning
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block, never run; jsonBlockText escapes "<" so it cannot close the element.
            dangerouslySetInnerHTML={{ __html: serializePublicConfig(config) }}
          />
        ) : null}
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function UnreachableNotice() {
  const { session } = useSession();
  const text = useLayoutMessages();
  if (session !== "unreachable") return null;
  return (
    <p className="notice notice-warning" role="alert">
      {text.unreachable}
    </p>
  );
}

/**
 * The page frame. The back office (`bare`) draws its own (app/routes/ops/ops-layout.tsx); its
 * errors, and the 404 a non-operator meets there, are drawn in the ordinary frame.
 */
function Shell({ children, bare = false }: { children: ReactNode; bare?: boolean }) {
  const { ready, isMobile } = useStartup();
  useFocusOnNavigation();
  useEffect(() => {
    if (!window.paydesk) return;
    window.paydesk.hydrated = true;
    document.documentElement.dataset.hydrated = "true";
  }, []);
  if (bare) {
    return (
      <div className="app-shell" data-device={ready ? (isMobile ? "mobile" : "desktop") : undefined}>
        <NavigationProgress />
        {children}
        <Announcer />
      </div>
    );
  }
  return (
    <div className="app-shell" data-device={ready ? (isMobile ? "mobile" : "desktop") : undefined}>
      <AppHeader />
      <NavigationProgress />
      <main id="main" className="app-main">
        <UnreachableNotice />
        <SignInLinkNotice />
        <LockedAccountNotice />
        {children}
      </main>
      <AppFooter />
      <Announcer />
    </div>
  );
}

export default function App() {
  const { chunkFailure } = useStartup();
  const { pathname } = useLocation();
  const backOffice = !chunkFailure && (pathname === "/ops" || pathname.startsWith("/ops/"));
  return (
    <Shell bare={backOffice}>{chunkFailure ? <ChunkFailure stylesheet={chunkFailure instanceof CssChunkLoadError} /> : <Outlet />}</Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    // Chunk failures are reported where they are detected (app/startup/route-chunks.ts).
    if (!notFound && !isChunkError(error)) reportError(error, { phase: "route" });
  }, [error, notFound]);

  const text = useLayoutMessages();
  let content: ReactNode;
  if (notFound) content = <NotFound />;
  else if (isChunkError(error)) content = <ChunkFailure stylesheet={error instanceof CssChunkLoadError} />;
  else {
    content = (
      <section className="chunk-failure" role="alert">
        <h1>{text.crashTitle}</h1>
        <p>{text.crashBody}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {text.reload}
        </button>
      </section>
    );
  }
  return <Shell>{content}</Shell>;
}
