/**
 * What WeChat Pay's H5 cashier is to a phone's browser, for local emulation: the order, and a
 * button that pays it (as the payer confirming in WeChat), then back to `redirect_url` —
 * which WeChat Pay also does whether or not the payer paid.
 */
import type { Context } from "hono";
import { noRouteError } from "../../http/answer";
import { html } from "hono/html";
import type { OriginEnv } from "../../origin-env";
import { loopbackPage } from "./cashier-link";

/** A same-site path, or a loopback http(s) URL: where the stand-in cashier may send the browser back. */
function safeReturn(target: string | undefined): string | null {
  if (!target) return null;
  if (target.startsWith("/")) {
    // Read as a browser reads it: a tab or newline is dropped there, so `/\t/evil.example`
    // would be `//evil.example`, another host. Only a path that stays on this site returns.
    try {
      const url = new URL(target, "https://paydesk.invalid");
      return url.origin === "https://paydesk.invalid" && !/^\/[/\\]/.test(url.pathname) ? url.pathname + url.search + url.hash : null;
    } catch {
      return null;
    }
  }
  return loopbackPage(target)?.toString() ?? null;
}

type SimulatedOrder = { outTradeNo: string; prepayId: string; description: string; total: number; tradeState: string };

async function simulatedOrderByPrepayId(simulator: Fetcher, prepayId: string): Promise<SimulatedOrder | null> {
  const state = (await (await simulator.fetch("http://wechatpay-simulator.internal/__simulator/state")).json()) as {
    orders: Record<string, SimulatedOrder>;
  };
  return Object.values(state.orders).find((order) => order.prepayId === prepayId) ?? null;
}

/** GET shows the order; POST pays it at the simulator and sends the browser back. */
export async function cashier(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw noRouteError(c);
  const prepayId = c.req.query("prepay_id") ?? "";
  const order = await simulatedOrderByPrepayId(wechat.simulator, prepayId);
  const back = safeReturn(c.req.query("redirect_url"));
  if (c.req.method === "POST" && order) {
    await wechat.simulator.fetch(`http://wechatpay-simulator.internal/__simulator/orders/${encodeURIComponent(order.outTradeNo)}/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const here = new URL(c.req.url);
    return c.redirect(back ?? `${here.pathname}${here.search}`, 303);
  }
  // Hono's html template escapes every interpolated value.
  const body = order
    ? html`<h1>WeChat Pay (simulator)</h1><p>${order.description}</p><p><strong>¥${(order.total / 100).toFixed(2)}</strong> — ${order.tradeState}</p>
<form method="post"><button type="submit" ${order.tradeState === "NOTPAY" ? "" : "disabled"}>Pay (simulated)</button></form>
${back ? html`<p><a href="${back}">Back to Paydesk</a></p>` : ""}`
    : html`<h1>WeChat Pay (simulator)</h1><p>This payment link is unknown or has expired.</p>`;
  return c.html(
    html`<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>WeChat Pay (simulator)</title>${body}</html>`,
    order ? 200 : 404,
  );
}
