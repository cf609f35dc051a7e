/**
 * What WeChat's authorize page is to a browser inside WeChat, for local emulation: the
 * simulator's stand-in, which sends the browser straight back to `redirect_uri` with a code
 * (snsapi_base asks nothing). WeChat returns only to the official account's registered
 * domain; the stand-in, only to a loopback page.
 */
import type { Context } from "hono";
import { noRouteError } from "../../http/answer";
import type { OriginEnv } from "../../origin-env";

function isLoopbackPage(target: string | undefined): boolean {
  try {
    const url = new URL(target ?? "");
    return (url.protocol === "http:" || url.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}

export async function authorizePage(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw noRouteError(c);
  if (!isLoopbackPage(c.req.query("redirect_uri"))) return c.text("redirect_uri参数错误", 400);
  const search = new URL(c.req.url).search;
  const answer = await wechat.simulator.fetch(`http://wechatpay-simulator.internal/connect/oauth2/authorize${search}`, {
    redirect: "manual",
  });
  const location = answer.headers.get("Location");
  return location ? c.redirect(location, 302) : c.text(await answer.text(), answer.status === 200 ? 400 : (answer.status as 400));
}
