/**
 * The WeChat Pay simulator as a worker of its own: one Durable Object holds the state (so
 * orders survive between requests), stores it after every change, and wakes by alarm to
 * deliver notifications on WeChat Pay's retry schedule. Point the origin's
 * WECHATPAY_BASE_URL here; see README.md.
 */
import { DurableObject } from "cloudflare:workers";
import { WechatPaySimulator } from "./simulator";
import type { SimulatorState } from "./state";

export type SimulatorEnv = {
  SIMULATOR: DurableObjectNamespace<WechatPaySimulatorObject>;
  /** Optional: where notifications go instead of `fetch` (a service binding to the origin, or a test sink). */
  NOTIFY?: Fetcher;
  /** "false" leaves deliveries to `POST /__simulator/notifications/deliver` (tests drive time themselves). */
  NOTIFY_AUTOMATICALLY?: string;
  /** Where h5_url points; default WeChat Pay's cashier host. */
  H5_URL_BASE?: string;
  /** Seconds until a PROCESSING refund succeeds by itself; default 60. */
  REFUND_SETTLE_SECONDS?: string;
};

export class WechatPaySimulatorObject extends DurableObject<SimulatorEnv> {
  private readonly simulator: WechatPaySimulator;

  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, env);
    this.simulator = new WechatPaySimulator({
      deliver: (request) => (env.NOTIFY ? env.NOTIFY.fetch(request) : fetch(request)),
      ...(env.H5_URL_BASE ? { h5UrlBase: env.H5_URL_BASE } : {}),
      refundSettleSeconds: Number(env.REFUND_SETTLE_SECONDS || 60),
      persist: () => this.save(),
    });
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.get<SimulatorState>("state");
      if (stored?.version === 1) this.simulator.state = stored;
    });
  }

  override async fetch(request: Request): Promise<Response> {
    const response = await this.simulator.fetch(request);
    await this.save();
    return response;
  }

  override async alarm(): Promise<void> {
    await this.simulator.deliverDue();
    await this.save();
  }

  private async save(): Promise<void> {
    await this.ctx.storage.put("state", this.simulator.state);
    if (this.env.NOTIFY_AUTOMATICALLY === "false") return;
    const next = this.simulator.nextWakeUp();
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }
}

export default {
  fetch(request, env) {
    return env.SIMULATOR.getByName("wechatpay").fetch(request);
  },
} satisfies ExportedHandler<SimulatorEnv>;
