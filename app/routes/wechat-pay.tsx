import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useFetcher, useNavigate, useRevalidator, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/wechat-pay";
import type { OrderDetail } from "#contract/orders";
import type { WechatPayConfigAnswer, WechatPayFlow, WechatPrepay } from "#contract/payments";
import { getOrder, payOrder } from "../api/orders";
import { completeWechatSignIn, getWechatPayConfig, getWechatSignIn, simulateWechatPayment, startWechatSignIn } from "../api/payments";
import { MissingOrder, orderParam } from "../components/order-param";
import { OrderSummary } from "../components/order-summary";
import { QrCode } from "../components/qr-code";
import { Spinner } from "../components/spinner";
import { formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { formatMoney } from "../i18n/format";
import { metaLanguage, useLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { isDefiniteRefusal } from "../messages/errors";
import { useLayoutMessages } from "../i18n/layout-messages";
import { paymentMessages } from "../messages/payment";
import { chooseFlow, h5UrlReturningTo, pollDelayMs } from "../payments/choose-flow";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { refreshUser } from "../session/account-session";
import { isWechatBrowser } from "../startup/flags";
import { useStartup } from "../startup/startup-state";

export function meta({ matches }: Route.MetaArgs) {
  const text = paymentMessages[metaLanguage(matches)];
  return pageMeta(`${text.wechatTitle} · Paydesk`, text.wechatDescription);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const id = orderParam(request.url);
  return loadPersonal(async (api) => {
    if (!id) return null;
    const [order, config] = await Promise.all([getOrder(api, id), getWechatPayConfig(api)]);
    // Inside WeChat, whether JSAPI can pay at once or WeChat's sign-in comes first (decision 073).
    const jsapi = config.flows.includes("jsapi") && isWechatBrowser(navigator.userAgent);
    return { order, config, signedIn: jsapi && (await getWechatSignIn(api)).signedIn };
  });
}
clientLoader.hydrate = true as const;

// Asking WeChat Pay for a payment, or playing the payer, changes nothing this page shows:
// its own polling notices the payment.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData ? false : defaultShouldRevalidate;
}

const paymentIntents = {
  prepare: (form: FormData): Promise<ActionResult> => {
    const body = { method: "wechat" as const, flow: formText(form, "flow") as WechatPayFlow };
    // The origin reuses the order's out_trade_no for a repeated request, so this is safe to repeat.
    return runAction("prepare", (api) => payOrder(api, formText(form, "orderId"), body, formText(form, "idempotencyKey")));
  },
  signIn: (form: FormData): Promise<ActionResult> =>
    runAction("signIn", (api) => startWechatSignIn(api, { orderId: formText(form, "orderId") })),
  completeSignIn: (form: FormData): Promise<ActionResult> =>
    runAction("completeSignIn", (api) => completeWechatSignIn(api, { code: formText(form, "code"), state: formText(form, "state") })),
  simulate: (form: FormData): Promise<ActionResult> =>
    runAction("simulate", (api) => simulateWechatPayment(api, { orderId: formText(form, "orderId") })),
};

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), paymentIntents);
}

export function HydrateFallback() {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="wechat-title">
      <h1 id="wechat-title">{text.wechatTitle}</h1>
      <PersonalFallback purpose={text.wechatPurpose} />
    </section>
  );
}

/** Seconds until `iso`, ticking every second (0 when past). */
function useSecondsLeft(iso: string): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((Date.parse(iso) - now) / 1_000));
}

function Countdown({ expiresAt }: { expiresAt: string }) {
  const text = useMessages(paymentMessages);
  const layout = useLayoutMessages();
  const seconds = useSecondsLeft(expiresAt);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return (
    <p className="countdown">
      {text.timeLeft}
      {layout.colon}
      <span role="timer">{clock}</span>
    </p>
  );
}

/**
 * Asks the origin for the order's status with back-off and moves to the result when it is
 * paid — the only proof of payment this page accepts (never the return from WeChat).
 */
function useMovingOnWhenPaid(order: OrderDetail) {
  const navigate = useNavigate();
  useEffect(() => {
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const check = async () => {
      // Not read (signed out, refused, unreachable): asked again after the next delay.
      const latest = await loadPersonal((api) => getOrder(api, order.id));
      if (stopped) return;
      if (latest.state === "ready" && latest.data.status !== "pending") {
        if (latest.data.status === "paid") void refreshUser();
        void navigate(`/pay_success?order=${order.id}`, { replace: true });
        return;
      }
      attempt += 1;
      timer = setTimeout(() => void check(), pollDelayMs(attempt));
    };
    timer = setTimeout(() => void check(), pollDelayMs(0));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [order.id, navigate]);
}

type WeixinBridge = { invoke(name: string, params: unknown, callback: (result: { err_msg?: string }) => void): void };

function openJsapiSheet(params: unknown) {
  const bridge = (window as { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge;
  // Whatever the sheet answers, the page waits for the origin to confirm the payment.
  const invoke = (ready: WeixinBridge) => ready.invoke("getBrandWCPayRequest", params, () => undefined);
  if (bridge) invoke(bridge);
  else
    document.addEventListener(
      "WeixinJSBridgeReady",
      () => {
        const ready = (window as { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge;
        if (ready) invoke(ready);
      },
      { once: true },
    );
}

function SimulatePayment({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post" className="simulator">
      <FormAlert result={fetcher.data} />
      <input type="hidden" name="intent" value="simulate" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="hint">{text.simulateHint}</p>
      <button type="submit" className="button button-secondary" disabled={fetcher.state !== "idle"}>
        {text.simulate}
      </button>
    </fetcher.Form>
  );
}

function Instructions({ prepay, order, inWechat }: { prepay: WechatPrepay; order: OrderDetail; inWechat: boolean }) {
  const text = useMessages(paymentMessages);
  const language = useLanguage();
  if (prepay.flow === "h5") {
    const back = new URL(`/pay_success?order=${order.id}`, window.location.href).toString();
    return (
      <section aria-labelledby="h5-title">
        <h2 id="h5-title">{text.h5Title}</h2>
        <p>{text.h5Hint}</p>
        <a className="button" href={h5UrlReturningTo(prepay.h5Url, back)}>
          {text.openWechat}
        </a>
      </section>
    );
  }
  if (prepay.flow === "jsapi") {
    return (
      <section aria-labelledby="jsapi-title">
        <h2 id="jsapi-title">{text.jsapiTitle}</h2>
        <p>{text.jsapiHint}</p>
        <button type="button" className="button" onClick={() => openJsapiSheet(prepay.jsapi)}>
          {text.jsapiOpen}
        </button>
      </section>
    );
  }
  return (
    <section aria-labelledby="scan-title" className="scan">
      <h2 id="scan-title">{text.scanTitle}</h2>
      <QrCode value={prepay.codeUrl} label={text.qrLabel(formatMoney(order.amount, language))} />
      <p>{inWechat ? text.inWechatHint : text.scanHint}</p>
    </section>
  );
}

/**
 * Inside WeChat, JSAPI needs WeChat's silent sign-in first (docs/decisions/073-wechat-payer-sign-in.md):
 * when the origin has no openid for the person (or answers WECHAT_SIGN_IN_NEEDED), the page goes
 * to WeChat's sign-in, which comes back here with `code` and `state`; the page hands them to the origin, takes them out of the
 * address bar, and asks for the payment again. It goes to WeChat by itself once per visit;
 * after that, only when the person asks.
 */
function useWechatSignIn(orderId: string, onSignedIn: () => void) {
  const [params, setParams] = useSearchParams();
  const code = params.get("code");
  const state = params.get("state");
  const starting = useFetcher<ActionResult<{ url: string }>>();
  const completing = useFetcher<ActionResult<{ signedIn: true }>>();
  const completed = useRef(false);
  const wentToWechat = useRef(false);
  const returned = code !== null && state !== null;

  const start = useCallback(() => {
    wentToWechat.current = true;
    void starting.submit({ intent: "signIn", orderId }, { method: "post" });
  }, [orderId, starting]);

  useEffect(() => {
    if (!returned || completed.current) return;
    completed.current = true;
    // Back from WeChat: this visit has been there already.
    wentToWechat.current = true;
    void completing.submit({ intent: "completeSignIn", code, state }, { method: "post" });
  }, [returned, code, state, completing]);

  const handled = useRef<unknown>(null);
  useEffect(() => {
    // Once per answer: the effect's callbacks change with every render.
    if (!completing.data || handled.current === completing.data) return;
    handled.current = completing.data;
    // WeChat's code is good once: it leaves the address bar, whatever the answer.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("code");
        next.delete("state");
        return next;
      },
      { replace: true },
    );
    if (completing.data.ok) onSignedIn();
  }, [completing.data, setParams, onSignedIn]);

  const left = useRef<unknown>(null);
  useEffect(() => {
    if (!starting.data?.ok || left.current === starting.data) return;
    left.current = starting.data;
    window.location.assign(starting.data.data.url);
  }, [starting.data]);

  const failure = [starting.data, completing.data].find((result) => result && !result.ok) ?? null;
  return {
    /** Back from WeChat, and the payment not asked for until the origin has the code. */
    returning: returned && !completing.data,
    busy: starting.state !== "idle" || completing.state !== "idle" || Boolean(starting.data?.ok),
    failure,
    start,
    /** Whether the page may go to WeChat by itself: not twice in one visit. */
    mayStartByItself: () => !wentToWechat.current,
  };
}

function WechatCheckout({ order, config, signedIn }: { order: OrderDetail; config: WechatPayConfigAnswer; signedIn: boolean }) {
  const text = useMessages(paymentMessages);
  const layout = useLayoutMessages();
  const { isMobile } = useStartup();
  const inWechat = typeof navigator !== "undefined" && isWechatBrowser(navigator.userAgent);
  const flow = chooseFlow(config.flows, { isMobile, inWechat });
  const prepare = useFetcher<ActionResult<WechatPrepay>>();
  const asked = useRef(false);
  // One key for this page's request: "Try again" after an answer that never came resends it.
  const idempotencyKey = useRef("");
  const secondsLeft = useSecondsLeft(order.expiresAt);
  useMovingOnWhenPaid(order);
  // At expiry the order closes (WeChat Pay's time_expire is the order's own): read it again.
  const revalidator = useRevalidator();
  const expired = secondsLeft === 0;
  const readAtExpiry = useRef(false);
  useEffect(() => {
    if (!expired || readAtExpiry.current) return;
    readAtExpiry.current = true;
    void revalidator.revalidate();
  }, [expired, revalidator]);

  const ask = useCallback(() => {
    if (!flow) return;
    idempotencyKey.current ||= crypto.randomUUID();
    void prepare.submit({ intent: "prepare", orderId: order.id, flow, idempotencyKey: idempotencyKey.current }, { method: "post" });
  }, [flow, order.id, prepare]);
  const signIn = useWechatSignIn(order.id, ask);

  useEffect(() => {
    if (asked.current || !flow) return;
    asked.current = true;
    // Back from WeChat's sign-in, the payment is asked for once the origin has the code.
    if (signIn.returning) return;
    if (flow === "jsapi" && !signedIn) signIn.start();
    else ask();
  }, [ask, flow, signIn, signedIn]);
  useEffect(() => {
    if (prepare.data && !prepare.data.ok && isDefiniteRefusal(prepare.data.failure.code)) idempotencyKey.current = "";
  }, [prepare.data]);
  const needsSignIn = prepare.data?.ok === false && prepare.data.failure.code === "WECHAT_SIGN_IN_NEEDED";
  useEffect(() => {
    if (needsSignIn && signIn.mayStartByItself()) signIn.start();
  }, [needsSignIn, signIn]);

  const prepay = prepare.data?.ok ? prepare.data.data : null;
  const failure = signIn.failure ?? (prepare.data && !prepare.data.ok ? prepare.data : null);
  const signingIn = signIn.busy || signIn.returning || (needsSignIn && !signIn.failure && signIn.mayStartByItself());
  return (
    <>
      <OrderSummary order={order} />
      {secondsLeft === 0 ? (
        <p className="notice notice-warning" role="alert">
          {text.expired}{" "}
          <Link to={order.kind === "recharge" ? "/recharge" : `/order?id=${order.id}`}>
            {order.kind === "recharge" ? text.startAgain : text.seeOrder}
          </Link>
        </p>
      ) : signingIn ? (
        <Spinner label={text.signingIn} />
      ) : failure ? (
        <div className="form-actions">
          <FormAlert result={failure} />
          {failure === signIn.failure || needsSignIn ? (
            <button type="button" className="button" onClick={signIn.start}>
              {text.signInAgain}
            </button>
          ) : (
            <button type="button" className="button" onClick={ask} disabled={prepare.state !== "idle"}>
              {layout.tryAgain}
            </button>
          )}
        </div>
      ) : prepay ? (
        <>
          <Instructions prepay={prepay} order={order} inWechat={inWechat} />
          <Countdown expiresAt={order.expiresAt} />
          <p role="status" className="hint">
            {text.waiting}
          </p>
          {config.simulator && import.meta.env.DEV ? <SimulatePayment order={order} /> : null}
        </>
      ) : (
        <Spinner label={text.preparing} />
      )}
      <p className="links">
        <Link to={`/pay?order=${order.id}`}>{text.wechatOther}</Link>
        <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
      </p>
    </>
  );
}

function NotConfigured({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  return (
    <>
      <OrderSummary order={order} />
      <p className="notice notice-warning" role="alert">
        {text.wechatNotConfigured}
      </p>
      <p className="links">
        <Link to={`/pay?order=${order.id}`}>{text.wechatOther}</Link>
        <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
      </p>
    </>
  );
}

function NotPending({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  const navigate = useNavigate();
  useEffect(() => {
    if (order.status === "paid") void navigate(`/pay_success?order=${order.id}`, { replace: true });
  }, [order, navigate]);
  return (
    <>
      <OrderSummary order={order} />
      <p role="alert">{text.notPayable}</p>
      <p className="links">
        <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
      </p>
    </>
  );
}

export default function WechatPay({ loaderData }: Route.ComponentProps) {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="wechat-title">
      <h1 id="wechat-title">{text.wechatTitle}</h1>
      <PersonalView result={loaderData} purpose={text.wechatPurpose}>
        {(screen) =>
          !screen ? (
            <MissingOrder />
          ) : screen.order.status !== "pending" ? (
            <NotPending order={screen.order} />
          ) : !screen.config.configured ? (
            <NotConfigured order={screen.order} />
          ) : (
            <WechatCheckout order={screen.order} config={screen.config} signedIn={screen.signedIn} />
          )
        }
      </PersonalView>
    </section>
  );
}
