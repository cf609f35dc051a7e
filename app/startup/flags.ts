// Phones and tablets: the markers their browsers put in the user agent.
const mobileUserAgent = /Android|iPhone|iPad|iPod|Mobile|Windows Phone|HarmonyOS|MicroMessenger/i;

export function isMobileUserAgent(userAgent: string): boolean {
  return mobileUserAgent.test(userAgent);
}

/** Whether the page was reached on one of the configured link-shortener hosts. */
export function isShortLinkHost(hostname: string, shortLinkHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return shortLinkHosts.some((candidate) => candidate.trim().toLowerCase() === host);
}

/** WeChat's in-app browser, where JSAPI's payment sheet is available. */
export function isWechatBrowser(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent);
}
