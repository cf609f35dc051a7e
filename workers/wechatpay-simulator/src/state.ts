/** The simulator's state: plain JSON, so the Durable Object can store it whole after each change. */

type VerificationMode = "public_key" | "certificate" | "both";
export type TradeType = "NATIVE" | "MWEB" | "JSAPI";
type TradeState = "NOTPAY" | "SUCCESS" | "CLOSED" | "REFUND";
type RefundStatus = "PROCESSING" | "SUCCESS" | "ABNORMAL" | "CLOSED";

export type SimOrder = {
  mchid: string;
  appid: string;
  outTradeNo: string;
  tradeType: TradeType;
  /** The request body, canonical, to tell an identical re-order from a different one. */
  fingerprint: string;
  description: string;
  total: number;
  attach?: string;
  notifyUrl: string;
  openid?: string;
  createdAt: number;
  timeExpire: number;
  tradeState: TradeState;
  prepayId: string;
  /** code_url and prepay_id live 2 hours, h5_url 5 minutes (reference §3). */
  linkExpiresAt: number;
  transactionId?: string;
  successTime?: number;
  payerOpenid?: string;
  closedAt?: number;
  refundedTotal: number;
  refundCount: number;
  /** How this payer's refunds end by themselves (a cancelled card: ABNORMAL); SUCCESS unless the payer said so. */
  refundOutcome?: "SUCCESS" | "ABNORMAL" | "CLOSED";
  /** The amount this payer's refunds end with, when not the one asked (an anomaly: refunds.ts `endRefund`). */
  refundAmount?: number;
  /** How long this payer's refunds take to end, when not the simulator's `refundSettleSeconds`. */
  refundAfterSeconds?: number;
};

export type SimRefund = {
  mchid: string;
  outRefundNo: string;
  refundId: string;
  outTradeNo: string;
  transactionId: string;
  fingerprint: string;
  refund: number;
  total: number;
  reason?: string;
  notifyUrl?: string;
  status: RefundStatus;
  createdAt: number;
  settleAt: number;
  successTime?: number;
  /**
   * Where the money went: ORIGINAL (the default) back the way it was paid; OTHER_BANKCARD once
   * the merchant paid an abnormal refund out to another card (`payOutAbnormalRefund`).
   */
  channel?: "ORIGINAL" | "OTHER_BANKCARD";
  /** Who received it, as WeChat Pay words it: 支付用户零钱 (the default), or a bank card. */
  receivedAccount?: string;
};

export type NotifyOptions = {
  /** Send one probe-signed copy (`WECHATPAY/SIGNTEST/…`) before the real one. */
  probeFirst?: boolean;
  /** Deliver the first real attempt twice at once. */
  duplicate?: boolean;
  /** Force the key that signs (a migration sends either); otherwise the merchant's mode decides. */
  signWith?: "public_key" | "certificate";
  /** Date the first real attempt's signature this many seconds away (a skewed clock); retries are right. */
  skewFirstSeconds?: number;
  /** Sign the first real attempt with a key and serial WeChat Pay never had; retries are right. */
  unknownSerialFirst?: boolean;
  /** Send the first attempt this many seconds late: a payment Paydesk hears of only when it asks. */
  delaySeconds?: number;
};

export type DeliveryAttempt = {
  at: number;
  status: number | "timeout" | "network_error";
  probe: boolean;
  serial: string;
  duplicate?: boolean;
};

export type SimDelivery = {
  id: string;
  url: string;
  body: string;
  eventType: string;
  outTradeNo: string;
  outRefundNo?: string;
  createdAt: number;
  /** Simulator time of the next attempt; null once delivered or given up. */
  nextAttemptAt: number | null;
  failures: number;
  delivered: boolean;
  gaveUp: boolean;
  /** The merchant answered 200/204 to a probe signature: it does not verify. */
  probeAccepted: boolean;
  options: NotifyOptions;
  attempts: DeliveryAttempt[];
};

export type FaultKind =
  | "status"
  | "timeout"
  | "probe_signature"
  | "unsigned"
  | "tamper_body"
  | "skew"
  | "unknown_serial"
  | "wrong_key"
  | "misreport_refund";

export type SimFault = {
  id: string;
  kind: FaultKind;
  /** Only requests with this method and a path starting with this prefix; any when absent. */
  method?: string;
  path?: string;
  status?: number;
  code?: string;
  message?: string;
  delayMs?: number;
  skewSeconds?: number;
  /** `misreport_refund`: the refund amount (fen) a refund's answer states, signed as WeChat Pay signs it. */
  refundAmount?: number;
  /** Whether the operation takes effect before the fault (default: yes for timeouts, no for statuses). */
  afterCommit?: boolean;
  remaining: number;
};

type RequestLog = { at: number; method: string; path: string; status: number; fault?: FaultKind };

export type SimulatorState = {
  version: 1;
  clockOffsetMs: number;
  mode: VerificationMode;
  currentCertificate: "A" | "B";
  /** Certificate B has been issued (rotation started). */
  rotated: boolean;
  orders: Record<string, SimOrder>;
  refunds: Record<string, SimRefund>;
  deliveries: SimDelivery[];
  faults: SimFault[];
  notifyDefaults: NotifyOptions;
  /** Alternates the signing key of notifications in "both" mode. */
  alternation: number;
  requests: RequestLog[];
  /** Web authorization's codes (web-authorization.ts), by code; absent in a state stored before them. */
  authorizationCodes?: Record<string, SimAuthorizationCode>;
  /** Web authorization opens pages as snapshots (朋友圈's snapshot mode): their codes give a stand-in openid. */
  snapshotPages?: boolean;
};

/** A code WeChat gave a page for its official account: good once, for 5 minutes. */
type SimAuthorizationCode = { appid: string; openid: string; expiresAt: number; used: boolean; snapshot?: boolean };

export function initialState(): SimulatorState {
  return {
    version: 1,
    clockOffsetMs: 0,
    mode: "public_key",
    currentCertificate: "A",
    rotated: false,
    orders: {},
    refunds: {},
    deliveries: [],
    faults: [],
    notifyDefaults: {},
    alternation: 0,
    requests: [],
    authorizationCodes: {},
  };
}

/** WeChat Pay's retry intervals after a failed delivery: 15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/3h/3h/6h/6h (24h4m). */
export const retryScheduleSeconds = [15, 15, 30, 180, 600, 1200, 1800, 1800, 1800, 3600, 10800, 10800, 10800, 21600, 21600] as const;
