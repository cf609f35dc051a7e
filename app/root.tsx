import { useEffect, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { AppFooter } from "./components/app-footer";
import { AppHeader } from "./components/app-header";
import { ChunkFailure } from "./components/chunk-failure";
import { NavigationProgress } from "./components/navigation-progress";
import { useServerDocument } from "./components/server-document";
import { NotFound } from "./components/not-found";
import { pageCacheControl, publicConfig } from "./config.server";
import { isChunkError, CssChunkLoadError } from "./startup/chunk-errors";
import { reportError } from "./startup/error-reporting";
import { publicConfigElementId, serializePublicConfig } from "./startup/public-config";
import { useStartup } from "./startup/startup-state";
import "./styles/layout.css";

export function loader() {
  return publicConfig();
}

export function links() {
  return [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];
}

export function headers(): HeadersInit {
  return { "Cache-Control": pageCacheControl };
}

export function meta() {
  return [
    { title: "Paydesk" },
    { name: "description", content: "Paydesk: your wallet for orders, transfers and paid tasks." },
  ];
}

export function Layout({ children }: { children: ReactNode }) {
  const { nonce, assetWatchSource } = useServerDocument();
  const config = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: assetWatchSource }} />
        <Meta />
        {/* Stylesheets need no nonce (style-src 'self'); without one, the browser's nonce
            hiding cannot make server and client attributes differ. */}
        <Links nonce="" />
      </head>
      <body>
        {config ? (
          <script
            type="application/json"
            id={publicConfigElementId}
            suppressHydrationWarning
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
  const { session } = useStartup();
  if (session !== "unreachable") return null;
  return (
    <p className="notice notice-warning" role="alert">
      Paydesk cannot reach its service right now. Your balance and orders will show again once it is back; please try
      again in a moment.
    </p>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { ready, isMobile } = useStartup();
  useEffect(() => {
    if (!window.paydesk) return;
    window.paydesk.hydrated = true;
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <div className="app-shell" data-device={ready ? (isMobile ? "mobile" : "desktop") : undefined}>
      <AppHeader />
      <NavigationProgress />
      <main id="main" className="app-main">
        <UnreachableNotice />
        {children}
      </main>
      <AppFooter />
    </div>
  );
}

export default function App() {
  const { chunkFailure } = useStartup();
  return (
    <Shell>{chunkFailure ? <ChunkFailure stylesheet={chunkFailure instanceof CssChunkLoadError} /> : <Outlet />}</Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    // Chunk failures are reported where they are detected (app/startup/route-chunks.ts).
    if (!notFound && !isChunkError(error)) reportError(error, { phase: "route" });
  }, [error, notFound]);

  let content: ReactNode;
  if (notFound) content = <NotFound />;
  else if (isChunkError(error)) content = <ChunkFailure stylesheet={error instanceof CssChunkLoadError} />;
  else {
    content = (
      <section className="chunk-failure" role="alert">
        <h1>Something went wrong</h1>
        <p>We could not show this page. Your money and data are safe. Please reload, or come back in a moment.</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </section>
    );
  }
  return <Shell>{content}</Shell>;
}
