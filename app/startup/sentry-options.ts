import type { PublicConfig } from "./public-config";

/** The query parameters that carry a credential: a sign-in link's token, a recovery link. */
const credentialParams = ["token", "link"] as const;

const hasCredential = (url: URL) => credentialParams.some((name) => url.searchParams.has(name));

/**
 * A URL as a report may carry it: without a sign-in or recovery link's credential
 * (docs/decisions/051-what-error-reports-carry.md). A path stays a path.
 */
function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, "https://paydesk.invalid");
  } catch {
    return url;
  }
  if (!hasCredential(parsed)) return url;
  for (const name of credentialParams) parsed.searchParams.delete(name);
  return url.startsWith("/") ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
}

type Breadcrumb = { data?: { [key: string]: unknown } };

/** The URLs a breadcrumb names (a navigation's from and to, a request's url), without credentials. */
function breadcrumbWithoutCredentials<B extends Breadcrumb>(breadcrumb: B): B {
  const data = breadcrumb.data;
  if (!data) return breadcrumb;
  for (const key of ["from", "to", "url"]) {
    const value = data[key];
    if (typeof value === "string") data[key] = withoutCredentials(value);
  }
  return breadcrumb;
}

/**
 * The browser SDK's options (docs/start-up.md): no session replays, a replay for every
 * error, and text, inputs and media masked — a payment app must not ship balances,
 * codes or passwords to a third party — unless the operator opts out. No request bodies,
 * cookies or addresses, and no credential in a URL (docs/decisions/051-what-error-reports-carry.md);
 * a page opened with a recovery link records no replay, which would keep its address.
 */
export function sentryBrowserOptions(config: PublicConfig & { sentryDsn: string }, pageUrl = "https://paydesk.invalid/") {
  const masked = !config.replayUnmasked;
  return {
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    replaysSessionSampleRate: 0,
    replaysOnErrorSampleRate: hasCredential(new URL(pageUrl)) ? 0 : 1,
    replay: { maskAllText: masked, maskAllInputs: masked, blockAllMedia: masked },
    dataCollection: { httpBodies: [], cookies: false, userInfo: false, urlQueryParams: { deny: [...credentialParams] } },
    beforeBreadcrumb: breadcrumbWithoutCredentials,
    beforeSend<E extends { request?: { url?: string }; breadcrumbs?: Breadcrumb[] }>(event: E): E {
      if (event.request?.url) event.request.url = withoutCredentials(event.request.url);
      event.breadcrumbs?.forEach(breadcrumbWithoutCredentials);
      return event;
    },
  };
}
