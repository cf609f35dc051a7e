/**
 * A WeChat Pay API v3 simulator for a direct merchant: the endpoints Paydesk's client uses,
 * with WeChat Pay's checks, signatures, ids, expiries and errors
 * (docs/decisions/004-wechat-pay.md §10), signed and sealed notifications with the retry
 * schedule, fault injection, and control endpoints under `/__simulator/`.
 * Plain class, clock and delivery passed in; the worker wraps it in a Durable Object.
 * README.md lists the modules it is made of.
 */
import type { ApiRoute } from "./answers";
import { dispatchApi } from "./api-dispatch";
import { certificateRoutes } from "./certificates";
import { control } from "./control";
import { SimulatorCore, type SimulatorOptions } from "./core";
import type { DeliveryReport } from "./notifications";
import { refundRoutes } from "./refunds";
import { deliverDue, nextWakeUp, tick } from "./schedule";
import type { SimulatorState } from "./state";
import { transactionRoutes } from "./transactions";
import { accessToken, authorize } from "./web-authorization";

const apiRoutes: readonly ApiRoute[] = [...transactionRoutes, ...refundRoutes, ...certificateRoutes];

export class WechatPaySimulator {
  private readonly core: SimulatorCore;

  constructor(options: SimulatorOptions, state?: SimulatorState) {
    this.core = new SimulatorCore(options, state);
  }

  get state(): SimulatorState {
    return this.core.state;
  }

  set state(state: SimulatorState) {
    this.core.state = state;
  }

  now(): number {
    return this.core.now();
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    tick(this.core);
    const response = url.pathname.startsWith("/__simulator/")
      ? await control(this.core, request, url)
      : url.pathname.startsWith("/v3/")
        ? await dispatchApi(this.core, apiRoutes, request, url)
        : request.method === "GET" && url.pathname === "/connect/oauth2/authorize"
          ? await authorize(this.core, url)
          : request.method === "GET" && url.pathname === "/sns/oauth2/access_token"
            ? await accessToken(this.core, url)
            : Response.json({ code: "NOT_FOUND", message: "Not a WeChat Pay API path" }, { status: 404 });
    await this.core.settled();
    return response;
  }

  /** When the simulator next has something to do, on the real clock; null when nothing waits. */
  nextWakeUp(): number | null {
    return nextWakeUp(this.core);
  }

  deliverDue(): Promise<DeliveryReport[]> {
    return deliverDue(this.core);
  }
}
