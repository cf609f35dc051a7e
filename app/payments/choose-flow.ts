import type { WechatPayFlow } from "#contract/payments";

export type Device = { isMobile: boolean; inWechat: boolean; openid: string | null };

/**
 * Which WeChat Pay flow a device gets (issue #5): inside WeChat with the payer's openid, the
 * in-app payment sheet (JSAPI); in a phone's browser, WeChat opened from the page (H5); on a
 * desktop — or inside WeChat without an openid — a QR code to scan (Native). Only flows the
 * merchant offers; the QR code when the preferred one is not offered.
 */
export function chooseFlow(offered: readonly WechatPayFlow[], device: Device): WechatPayFlow | null {
  const preferred: WechatPayFlow = device.inWechat ? (device.openid ? "jsapi" : "native") : device.isMobile ? "h5" : "native";
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
