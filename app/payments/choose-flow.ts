import type { WechatPayFlow } from "#contract/payments";

export type Device = { isMobile: boolean; inWechat: boolean };

/**
 * Which WeChat Pay flow a device gets (issue #5): inside WeChat, the in-app payment sheet
 * (JSAPI, after WeChat's sign-in gives the payer's openid: docs/decisions/073-wechat-payer-sign-in.md);
 * in a phone's browser, WeChat opened from the page (H5); on a desktop, a QR code to scan
 * (Native). Only flows the merchant offers; the QR code when the preferred one is not offered
 * (inside WeChat too, where a QR code is paid by pressing on it).
 */
export function chooseFlow(offered: readonly WechatPayFlow[], device: Device): WechatPayFlow | null {
  const preferred: WechatPayFlow = device.inWechat ? "jsapi" : device.isMobile ? "h5" : "native";
  if (offered.includes(preferred)) return preferred;
  return offered.includes("native") ? "native" : (offered[0] ?? null);
}

/** WeChat's H5 cashier returns to `redirect_url` whether or not the person paid. */
export function h5UrlReturningTo(h5Url: string, returnTo: string): string {
  const url = new URL(h5Url);
  url.searchParams.set("redirect_url", returnTo);
  return url.toString();
}

/** Back-off for checking a payment: 2 s, then 1.5× longer each time, at most 15 s. */
export function pollDelayMs(attempt: number): number {
  return Math.min(2_000 * 1.5 ** attempt, 15_000);
}
