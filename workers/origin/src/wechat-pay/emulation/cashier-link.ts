/** Local emulation: H5's link leads to the simulator's stand-in cashier, through the origin. */
const simulatorCashierPath = "/api/payments/wechat/simulator/cashier";

/**
 * The page's own origin when it is a loopback one (the browser's `Origin`, which the edge
 * passes on), so that the stand-in cashier's link is absolute like WeChat Pay's; else "".
 */
function loopbackOrigin(origin = ""): string {
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/.test(origin) ? origin : "";
}

/** The stand-in cashier's link for the simulator's `h5_url` (its query names the payment). */
export function cashierLink(h5Url: string, origin: string | undefined): string {
  return `${loopbackOrigin(origin)}${simulatorCashierPath}${new URL(h5Url).search}`;
}

/** A loopback http(s) page, as a URL: the only place local emulation's stand-ins send a browser back to. */
export function loopbackPage(target: string | undefined): URL | null {
  try {
    const url = new URL(target ?? "");
    return (url.protocol === "http:" || url.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)
      ? url
      : null;
  } catch {
    return null;
  }
}
