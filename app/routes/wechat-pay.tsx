import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useFetcher, useNavigate, useRevalidator, type ShouldRevalidateFunctionArgs } from "react-router";
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
import { useWechatReturnCleared, useWechatSignIn } from "../payments/wechat-sign-in";
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

function openJsapiSheet(params: unknown, onFailed: () => void) {
  const bridge = (window as { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge;
  // Whatever the sheet answers, only the origin confirms a payment. A sheet that would not open
  // (":fail", e.g. a payment for another WeChat account's openid) leads to WeChat's sign-in;
  // one the person closed (":cancel") may simply be opened again.
  const invoke = (ready: WeixinBridge) =>
    ready.invoke("getBrandWCPayRequest", params, (result) => {
      if (result.err_msg?.endsWith(":fail")) onFailed();
    });
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

function Instructions({
  prepay,
  order,
  inWechat,
  onSheetFailed,
}: {
  prepay: WechatPrepay;
  order: OrderDetail;
  inWechat: boolean;
  onSheetFailed: () => void;
}) {
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
        <button type="button" className="button" onClick={() => openJsapiSheet(prepay.jsapi, onSheetFailed)}>
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

function WechatCheckout({ order, config, signedIn }: { order: OrderDetail; config: WechatPayConfigAnswer; signedIn: boolean }) {
  const text = useMessages(paymentMessages);
  const layout = useLayoutMessages();
  const { isMobile } = useStartup();
  const inWechat = typeof navigator !== "undefined" && isWechatBrowser(navigator.userAgent);
  const flow = chooseFlow(config.flows, { isMobile, inWechat });
  const prepare = useFetcher<ActionResult<WechatPrepay>>();
  const asked = useRef(false);
  const wentByItself = useRef(false);
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

  // Inside WeChat, JSAPI waits for WeChat's sign-in when the origin has no openid for the person.
  const signIn = useWechatSignIn({ orderId: order.id, jsapi: flow === "jsapi" });
  const payerKnown = signedIn || signIn.signedIn;
  const waitsForSignIn = flow === "jsapi" && (signIn.completing || !payerKnown);
  useEffect(() => {
    if (asked.current || !flow || expired || waitsForSignIn) return;
    asked.current = true;
    ask();
  }, [ask, flow, expired, waitsForSignIn]);
  useEffect(() => {
    if (!waitsForSignIn || signIn.completing || !signIn.mayGoByItself || expired || wentByItself.current) return;
    wentByItself.current = true;
    signIn.start();
  }, [waitsForSignIn, signIn, expired]);
  useEffect(() => {
    if (prepare.data && !prepare.data.ok && isDefiniteRefusal(prepare.data.failure.code)) idempotencyKey.current = "";
  }, [prepare.data]);

  const prepay = prepare.data?.ok ? prepare.data.data : null;
  // The openid went meanwhile, or WeChat's sheet would not open for it (another WeChat account).
  const [sheetFailed, setSheetFailed] = useState(false);
  const needsSignIn = sheetFailed || (prepare.data?.ok === false && prepare.data.failure.code === "WECHAT_SIGN_IN_NEEDED");
  const signInFailure = waitsForSignIn ? signIn.failure : null;
  const failure = signInFailure ?? (prepare.data?.ok === false ? prepare.data : null);
  const signInAgain = (
    <button type="button" className="button" onClick={signIn.start} disabled={signIn.busy}>
      {text.signInAgain}
    </button>
  );
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
      ) : signIn.busy || (waitsForSignIn && signIn.completing) ? (
        <Spinner label={text.signingIn} />
      ) : sheetFailed ? (
        <div className="form-actions">
          <p className="notice notice-warning" role="alert">
            {text.sheetFailed}
          </p>
          {signInAgain}
        </div>
      ) : failure ? (
        <div className="form-actions">
          <FormAlert result={failure} />
          {signIn.mayRetryReturn && failure === signInFailure ? (
            <button type="button" className="button" onClick={signIn.retryReturn}>
              {layout.tryAgain}
            </button>
          ) : failure === signInFailure || needsSignIn ? (
            signInAgain
          ) : (
            <button type="button" className="button" onClick={ask} disabled={prepare.state !== "idle"}>
              {layout.tryAgain}
            </button>
          )}
        </div>
      ) : waitsForSignIn ? (
        <div className="form-actions">
          <p>{text.signInNeeded}</p>
          {signInAgain}
        </div>
      ) : prepay ? (
        <>
          <Instructions prepay={prepay} order={order} inWechat={inWechat} onSheetFailed={() => setSheetFailed(true)} />
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
  useWechatReturnCleared();
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
  useWechatReturnCleared();
  const navigate = useNavigate();
  useEffect(() => {
    if (order.status === "paid") void navigate(`/pay_success?order=${order.id}`, { replace: true });
  }, [order, navigate]);
  return (
    <>
      <OrderSummary order={order} />
      <p role="alert">{text.notPayable}</p>
      <p className="links">
        <Link to={`/pay_success?order=${order.id}`}>{text.resultTitle}</Link>
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
