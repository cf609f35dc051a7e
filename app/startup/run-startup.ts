import { CssChunkLoadError, reloadOnceFor, ChunkLoadError } from "./chunk-errors";
import { assetErrorEvent, pendingChunkErrorKey, type AssetFailure } from "./chunk-policy";
import { startErrorReporting, reportError } from "./error-reporting";
import { isMobileUserAgent, isShortLinkHost } from "./flags";
import { currentLanguage } from "../i18n/messages";
import { prefetchErrorMessages } from "../messages/errors";
import { readPublicConfig } from "./public-config";
import { rememberReferrer } from "./referrer";
import { routeModulesWithChunkLoader } from "./route-chunks";
import { safeStorage } from "../storage/safe-storage";
import { updateStartupState, getStartupState } from "./startup-state";
import { whenIdle } from "./when-idle";
import { followOtherTabs, resumeSession, settleUnknownSession } from "../session/account-session";
import { takeLinkToken } from "../session/token";

declare global {
  interface Window {
    /** The start-up results, for scripts and support tooling; components use useStartup(). */
    paydesk?: { isMobile: boolean; isShortLinkHost: boolean; user: unknown; hydrated?: boolean };
    __paydeskAssetErrors?: AssetFailure[];
    __paydeskStarted?: boolean;
    __reactRouterManifest?: { routes: Record<string, { id: string; module: string } | undefined> };
    __reactRouterRouteModules?: Record<string, unknown>;
  }
}

const session = safeStorage(() => window.sessionStorage);
const device = safeStorage(() => window.localStorage);

function watchStylesheets(): void {
  const onFailure = (failure: AssetFailure) => {
    if (failure.kind !== "stylesheet" || getStartupState().chunkFailure) return;
    if (reloadOnceFor(failure.url, session, () => window.location.reload())) return;
    const error = new CssChunkLoadError(failure.url);
    reportError(error);
    updateStartupState({ chunkFailure: error });
  };
  for (const failure of window.__paydeskAssetErrors ?? []) onFailure(failure);
  window.addEventListener(assetErrorEvent, (event) => onFailure((event as CustomEvent<AssetFailure>).detail));
}

function reportFailureOfLastVisit(): void {
  const pending = session.get(pendingChunkErrorKey);
  if (!pending) return;
  session.set(pendingChunkErrorKey, "");
  try {
    const { url, reason } = JSON.parse(pending) as { url: string; reason: "timeout" | "error" };
    reportError(new ChunkLoadError("entry", url, reason), { phase: "initial-load" });
  } catch {
    // An empty or foreign value: nothing to report.
  }
}

/**
 * The start-up sequence of docs/start-up.md, in its order; `hydrate` runs whatever
 * happened before it.
 */
export async function runStartup(hydrate: () => void): Promise<void> {
  try {
    window.__paydeskStarted = true;
    const config = readPublicConfig(document);

    // 1. Flags.
    const isMobile = isMobileUserAgent(navigator.userAgent);
    const shortLink = isShortLinkHost(window.location.hostname, config.shortLinkHosts);
    // 2. Referrers.
    const referrers = rememberReferrer(document.referrer, session, device);
    updateStartupState({ isMobile, isShortLinkHost: shortLink, referrers });
    window.paydesk = { isMobile, isShortLinkHost: shortLink, user: null };

    // A sign-in link's token leaves the address bar before error reporting can record the URL;
    // it is adopted in step 4 as specified.
    const linkToken = takeLinkToken({
      href: window.location.href,
      replace: (url) => window.history.replaceState(window.history.state, "", url),
    });

    // 3. Error reporting, then what it should see: chunk loading and failed assets.
    await startErrorReporting(config);
    reportFailureOfLastVisit();
    if (window.__reactRouterManifest && window.__reactRouterRouteModules) {
      window.__reactRouterRouteModules = routeModulesWithChunkLoader({
        modules: window.__reactRouterRouteModules,
        manifest: window.__reactRouterManifest,
        session,
        reload: () => window.location.reload(),
        onFailure: (error) => {
          reportError(error);
          updateStartupState({ chunkFailure: error });
        },
      });
    }
    watchStylesheets();

    // 4. Token. 5. Session.
    await resumeSession(linkToken);
    updateStartupState({ ready: true });
  } catch (error) {
    // Start-up must never keep the app from hydrating.
    reportError(error, { phase: "startup" });
    settleUnknownSession();
    updateStartupState({ ready: true });
  }
  followOtherTabs();
  // 6. Hydrate, in every case.
  hydrate();
  // 7. Then, off the page's first load, the error messages in the page's language.
  whenIdle(() => prefetchErrorMessages(currentLanguage()));
}
