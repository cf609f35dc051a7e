/**
 * Inside WeChat, JSAPI pays with the openid WeChat's silent sign-in gives for the person
 * (docs/decisions/073-wechat-payer-sign-in.md). The page goes to WeChat's sign-in, which comes
 * back with `code` and `state`; those leave the address bar at once (WeChat's code is good
 * once) and go to the origin. The page goes to WeChat by itself at most once per order in a
 * tab, so a sign-in that keeps failing never sends it round in a loop: after that, the person
 * asks for it.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher, useSearchParams } from "react-router";
import type { ActionResult } from "../forms/action-result";

const goneKey = (orderId: string) => `paydesk:wechat-sign-in:${orderId}`;

/** Whether this tab went to WeChat's sign-in for the order already (storage may be off: then it has not). */
function wentBefore(orderId: string): boolean {
  try {
    return sessionStorage.getItem(goneKey(orderId)) !== null;
  } catch {
    return false;
  }
}

function markGone(orderId: string): void {
  try {
    sessionStorage.setItem(goneKey(orderId), "1");
  } catch {
    // Without storage the page may go once more after a reload, which is the worst it does.
  }
}

function withoutReturn(current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete("code");
  next.delete("state");
  return next;
}

/** WeChat's `code` and `state` out of the address bar, where nothing will finish the sign-in (an order no longer payable). */
export function useWechatReturnCleared(): void {
  const [params, setParams] = useSearchParams();
  const returned = params.has("code") || params.has("state");
  useEffect(() => {
    if (!returned) return;
    setParams(withoutReturn, { replace: true });
  }, [returned, setParams]);
}

export function useWechatSignIn({ orderId, jsapi }: { orderId: string; jsapi: boolean }) {
  const [params] = useSearchParams();
  // WeChat's return, read once: a state with its code (or, should WeChat refuse, without one).
  const [returned] = useState(() => {
    const state = params.get("state");
    return state === null ? null : { code: params.get("code") ?? "", state };
  });
  const [mayGoByItself] = useState(() => returned === null && !wentBefore(orderId));
  const starting = useFetcher<ActionResult<{ url: string }>>();
  const completing = useFetcher<ActionResult<{ signedIn: true }>>();

  const complete = useCallback(() => {
    if (returned) void completing.submit({ intent: "completeSignIn", ...returned }, { method: "post" });
  }, [returned, completing]);

  useWechatReturnCleared();
  const sent = useRef(false);
  useEffect(() => {
    // Outside JSAPI (another browser, a deploy that stopped offering it) there is nothing to finish.
    if (!returned || !jsapi || sent.current) return;
    sent.current = true;
    complete();
  }, [returned, jsapi, complete]);

  const start = useCallback(() => {
    markGone(orderId);
    void starting.submit({ intent: "signIn", orderId }, { method: "post" });
  }, [orderId, starting]);

  const left = useRef<unknown>(null);
  useEffect(() => {
    if (!starting.data?.ok || left.current === starting.data) return;
    left.current = starting.data;
    // Replaced, not pushed: going back from WeChat does not land on a page that goes there again.
    window.location.replace(starting.data.data.url);
  }, [starting.data]);

  const failure = [starting.data, completing.data].find((result) => result?.ok === false) ?? null;
  return {
    /** Back from WeChat, with the origin's answer still to come. */
    completing: returned !== null && jsapi && !completing.data,
    signedIn: completing.data?.ok === true,
    busy: starting.state !== "idle" || completing.state !== "idle" || starting.data?.ok === true,
    failure: failure?.ok === false ? failure : null,
    /** WeChat did not answer the origin clearly: the same return may be sent again. */
    mayRetryReturn: completing.data?.ok === false && completing.data.failure.code === "WECHAT_PAY_UNAVAILABLE",
    retryReturn: complete,
    start,
    mayGoByItself,
  };
}
