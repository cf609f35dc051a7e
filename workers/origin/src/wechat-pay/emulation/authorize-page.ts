/**
 * What WeChat's authorize page is to a browser inside WeChat, for local emulation: the
 * simulator's stand-in, which sends the browser straight back to `redirect_uri` with a code
 * (snsapi_base asks nothing). WeChat returns only to the official account's registered
 * domain; the stand-in, only to a loopback page.
 */
import type { Context } from "hono";
import { noRouteError } from "../../http/answer";
import type { OriginEnv } from "../../origin-env";
import { loopbackPage } from "./cashier-link";

export async function authorizePage(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw noRouteError(c);
  if (!loopbackPage(c.req.query("redirect_uri"))) return c.text("redirect_uri参数错误", 400);
  const search = new URL(c.req.url).search;
  const answer = await wechat.simulator.fetch(`http://wechatpay-simulator.internal/connect/oauth2/authorize${search}`, {
    redirect: "manual",
  });
  const location = answer.headers.get("Location");
  // The simulator refuses with a page of its own (400), as WeChat shows one.
  return location ? c.redirect(location, 302) : c.text(await answer.text(), 400);
}
