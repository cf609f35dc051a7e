/** A stand-in for WeChat Pay's H5 cashier in local emulation (`h5UrlBase` pointing here). */
import type { SimulatorCore } from "./core";
import { html } from "hono/html";

export async function cashierPage(core: SimulatorCore, url: URL, mchid: string): Promise<Response> {
  const prepayId = url.searchParams.get("prepay_id") ?? "";
  const order = Object.values(core.state.orders).find((candidate) => candidate.mchid === mchid && candidate.prepayId === prepayId);
  // Hono's html template escapes every interpolated value.
  const body = order
    ? html`<h1>WeChat Pay simulator</h1><p>${order.description}</p><p>¥${(order.total / 100).toFixed(2)} — ${order.tradeState}</p>
<p>Use the control endpoint <code>POST /__simulator/orders/${encodeURIComponent(order.outTradeNo)}/pay</code> to pay.</p>`
    : html`<h1>WeChat Pay simulator</h1><p>This payment link is unknown.</p>`;
  const page = await html`<!doctype html><meta charset="utf-8"><title>WeChat Pay simulator</title>${body}`;
  return new Response(page.toString(), {
    status: order ? 200 : 404,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}
