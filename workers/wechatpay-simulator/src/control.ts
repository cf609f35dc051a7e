/**
 * The control endpoints under `/__simulator/` (no authentication): what tests and local
 * emulation use to look at the state, move the clock, inject faults, play the payer and
 * deliver notifications. `?mchid=` picks another merchant than the TEST-ONLY one.
 */
import { z } from "zod";
import { cashierPage } from "./cashier-page";
import { cst, type SimulatorCore } from "./core";
import { verifyPaySign } from "./jsapi-bridge";
import { endRefund, payOutAbnormalRefund, refundOf } from "./refunds";
import { deliverDue, tick } from "./schedule";
import { initialState } from "./state";
import { testMerchant, testPlatformCertificates, testWechatPublicKey } from "./test-only-keys";
import { pay, transactionOf } from "./transactions";

type ControlRequest = { url: URL; input: unknown; mchid: string; param: string };

type ControlRoute = {
  method: "GET" | "POST" | "DELETE";
  /** Below `/__simulator`; at most one capture group, handed to `handle` decoded as `param`. */
  path: RegExp;
  handle: (core: SimulatorCore, request: ControlRequest) => Response | Promise<Response>;
};

const json = (body: unknown, status = 200) => Response.json(body, { status });
const bad = (issue: z.ZodError) => json({ error: "BAD_REQUEST", message: z.prettifyError(issue) }, 400);

const notifyOptions = z.strictObject({
  probeFirst: z.boolean().optional(),
  duplicate: z.boolean().optional(),
  signWith: z.enum(["public_key", "certificate"]).optional(),
  skewFirstSeconds: z.int().optional(),
  unknownSerialFirst: z.boolean().optional(),
  delaySeconds: z.int().min(0).max(3600).optional(),
});

const fault = z.strictObject({
  kind: z.enum([
    "status",
    "timeout",
    "probe_signature",
    "unsigned",
    "tamper_body",
    "skew",
    "unknown_serial",
    "wrong_key",
    "misreport_refund",
  ]),
  method: z.enum(["GET", "POST"]).optional(),
  // WeChat Pay's API, or web authorization's code exchange (web-authorization.ts: status and timeout only).
  path: z
    .string()
    .regex(/^\/(v3|sns)\//)
    .optional(),
  status: z.int().min(400).max(599).optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  delayMs: z.int().min(0).max(120_000).optional(),
  skewSeconds: z.int().optional(),
  refundAmount: z.int().optional(),
  afterCommit: z.boolean().optional(),
  times: z.int().min(1).max(1000).default(1),
});

const inputs = {
  clock: z.strictObject({ advanceSeconds: z.number().optional(), offsetSeconds: z.number().optional() }),
  mode: z.strictObject({ mode: z.enum(["public_key", "certificate", "both"]) }),
  faults: z.union([z.strictObject({ faults: z.array(fault) }), fault]),
  pay: z.strictObject({
    openid: z.string().min(1).optional(),
    notify: notifyOptions.optional(),
    /** How refunds of this payment end by themselves: ABNORMAL plays a payer whose card was cancelled since. */
    refundOutcome: z.enum(["SUCCESS", "ABNORMAL", "CLOSED"]).optional(),
    /** The amount its refunds end with, when not the one asked (refunds.ts `endRefund`). */
    refundAmount: z.int().min(1).optional(),
    /** How long its refunds take to end by themselves, when not the simulator's REFUND_SETTLE_SECONDS. */
    refundAfterSeconds: z.int().min(0).max(86_400).optional(),
  }),
  finishRefund: z.strictObject({
    status: z.enum(["SUCCESS", "ABNORMAL", "CLOSED"]).default("SUCCESS"),
    /**
     * The amount it ends with, when not the one asked for: an anomaly WeChat Pay's own
     * documents do not describe, which Paydesk parks (docs/decisions/070-parked-refunds-settled.md).
     */
    refund: z.int().min(1).optional(),
  }),
};

const routes: readonly ControlRoute[] = [
  { method: "GET", path: /^\/health$/, handle: (core) => json({ ok: true, now: cst(core.now()) }) },
  { method: "GET", path: /^\/state$/, handle: (core) => json(core.state) },
  { method: "POST", path: /^\/reset$/, handle: reset },
  { method: "GET", path: /^\/merchant-config$/, handle: merchantConfig },
  { method: "POST", path: /^\/clock$/, handle: moveClock },
  { method: "POST", path: /^\/mode$/, handle: setMode },
  { method: "POST", path: /^\/web-authorization$/, handle: setWebAuthorization },
  { method: "POST", path: /^\/certificates\/rotate$/, handle: rotateCertificates },
  { method: "GET", path: /^\/faults$/, handle: (core) => json({ faults: core.state.faults }) },
  { method: "DELETE", path: /^\/faults$/, handle: clearFaults },
  { method: "POST", path: /^\/faults$/, handle: addFaults },
  { method: "GET", path: /^\/notifications$/, handle: (core) => json({ deliveries: core.state.deliveries }) },
  { method: "POST", path: /^\/notifications\/options$/, handle: setNotifyDefaults },
  { method: "POST", path: /^\/notifications\/deliver$/, handle: async (core) => json({ delivered: await deliverDue(core) }) },
  { method: "POST", path: /^\/orders\/([^/]+)\/pay$/, handle: payOrder },
  { method: "GET", path: /^\/orders\/([^/]+)$/, handle: showOrder },
  { method: "POST", path: /^\/refunds\/([^/]+)\/complete$/, handle: completeRefund },
  { method: "POST", path: /^\/refunds\/([^/]+)\/pay-out-abnormal$/, handle: payOutAbnormal },
  { method: "POST", path: /^\/jsapi\/verify$/, handle: async (core, { input, mchid }) => json(await verifyPaySign(core, input, mchid)) },
  { method: "GET", path: /^\/checkmweb$/, handle: (core, { url, mchid }) => cashierPage(core, url, mchid) },
];

export async function control(core: SimulatorCore, request: Request, url: URL): Promise<Response> {
  const path = url.pathname.slice("/__simulator".length);
  const method = request.method.toUpperCase();
  const input: unknown = method === "POST" ? await request.json().catch(() => ({})) : {};
  const mchid = url.searchParams.get("mchid") ?? testMerchant.mchid;
  for (const route of routes) {
    const match = route.method === method ? route.path.exec(path) : null;
    if (match) return route.handle(core, { url, input, mchid, param: decodeURIComponent(match[1] ?? "") });
  }
  return json({ error: "NOT_FOUND" }, 404);
}

function reset(core: SimulatorCore): Response {
  core.state = initialState();
  return json({ ok: true });
}

/** What local emulation configures the origin with (TEST-ONLY keys). */
function merchantConfig(core: SimulatorCore): Response {
  return json({
    mchid: testMerchant.mchid,
    appid: testMerchant.appid,
    merchantSerial: testMerchant.serial,
    merchantPrivateKeyPem: testMerchant.privateKeyPem,
    apiV3Key: testMerchant.apiV3Key,
    appSecret: testMerchant.appSecret,
    wechatPublicKey: { id: testWechatPublicKey.id, pem: testWechatPublicKey.publicKeyPem },
    platformCertificates: [testPlatformCertificates.A.certificatePem],
    mode: core.state.mode,
  });
}

function moveClock(core: SimulatorCore, { input }: ControlRequest): Response {
  const parsed = inputs.clock.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  if (parsed.data.offsetSeconds !== undefined) core.state.clockOffsetMs = parsed.data.offsetSeconds * 1000;
  if (parsed.data.advanceSeconds !== undefined) core.state.clockOffsetMs += parsed.data.advanceSeconds * 1000;
  tick(core);
  return json({ now: cst(core.now()), offsetSeconds: core.state.clockOffsetMs / 1000 });
}

function setMode(core: SimulatorCore, { input }: ControlRequest): Response {
  const parsed = inputs.mode.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  core.state.mode = parsed.data.mode;
  return json({ mode: core.state.mode });
}

function rotateCertificates(core: SimulatorCore): Response {
  core.state.rotated = true;
  core.state.currentCertificate = "B";
  return json({
    current: testPlatformCertificates.B.serial,
    issued: [testPlatformCertificates.A.serial, testPlatformCertificates.B.serial],
  });
}

function clearFaults(core: SimulatorCore): Response {
  core.state.faults = [];
  return json({ faults: [] });
}

/** How web authorization opens pages from now on: as snapshots (a stand-in openid) or not. */
function setWebAuthorization(core: SimulatorCore, { input }: ControlRequest): Response {
  const parsed = z.strictObject({ snapshotPages: z.boolean() }).safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  core.state.snapshotPages = parsed.data.snapshotPages;
  return json({ snapshotPages: core.state.snapshotPages });
}

function addFaults(core: SimulatorCore, { input }: ControlRequest): Response {
  const parsed = inputs.faults.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  const requested = "faults" in parsed.data ? parsed.data.faults : [parsed.data];
  core.state.faults.push(...requested.map(({ times, ...rest }) => ({ id: crypto.randomUUID(), ...rest, remaining: times })));
  return json({ faults: core.state.faults });
}

function setNotifyDefaults(core: SimulatorCore, { input }: ControlRequest): Response {
  const parsed = notifyOptions.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  core.state.notifyDefaults = parsed.data;
  return json({ notifyDefaults: core.state.notifyDefaults });
}

async function payOrder(core: SimulatorCore, { input, mchid, param: outTradeNo }: ControlRequest): Promise<Response> {
  const parsed = inputs.pay.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  const paid = pay(core, mchid, outTradeNo, parsed.data);
  await core.settled();
  return paid.ok ? json({ transaction: paid.transaction }) : json({ error: paid.error }, paid.status);
}

function showOrder(core: SimulatorCore, { mchid, param: outTradeNo }: ControlRequest): Response {
  const found = core.state.orders[`${mchid}:${outTradeNo}`];
  return found ? json({ order: found, transaction: transactionOf(found) }) : json({ error: "ORDER_NOT_EXIST" }, 404);
}

/** The merchant platform pays an ABNORMAL refund out to another bank card (refunds.ts). */
async function payOutAbnormal(core: SimulatorCore, { mchid, param: outRefundNo }: ControlRequest): Promise<Response> {
  const refund = core.state.refunds[`${mchid}:${outRefundNo}`];
  if (!refund) return json({ error: "RESOURCE_NOT_EXISTS" }, 404);
  if (!payOutAbnormalRefund(core, refund)) {
    return json({ error: refund.status === "ABNORMAL" ? "ORDER_REFUNDED_SINCE" : `REFUND_${refund.status}` }, 409);
  }
  await core.settled();
  return json({ refund: refundOf(refund) });
}

async function completeRefund(core: SimulatorCore, { input, mchid, param: outRefundNo }: ControlRequest): Promise<Response> {
  const parsed = inputs.finishRefund.safeParse(input);
  if (!parsed.success) return bad(parsed.error);
  const refund = core.state.refunds[`${mchid}:${outRefundNo}`];
  if (!refund) return json({ error: "RESOURCE_NOT_EXISTS" }, 404);
  if (refund.status !== "PROCESSING") return json({ error: `REFUND_${refund.status}` }, 409);
  const { status, refund: amount } = parsed.data;
  if (amount !== undefined && amount > refund.total)
    return json({ error: "BAD_REQUEST", message: "refund: at most the order's total" }, 400);
  endRefund(core, refund, status, amount);
  await core.settled();
  return json({ refund: refundOf(refund) });
}
