/**
 * Notifications as WeChat Pay sends them: sealed once (AEAD_AES_256_GCM with the APIv3 key),
 * signed afresh for every attempt with the key the merchant's mode (or the notification's
 * options) chooses, and retried on WeChat Pay's schedule until 200 or 204 comes back.
 */
import { cst, type SimulatorCore } from "./core";
import { type KeyChoice, type Spoiler, signatureHeaders } from "./signing";
import { randomAlphanumeric, randomHex, seal } from "./sim-crypto";
import { type DeliveryAttempt, type NotifyOptions, retryScheduleSeconds, type SimDelivery } from "./state";
import { testMerchant } from "./test-only-keys";

const deliveryTimeoutMs = 5_000;
const keptFinishedDeliveries = 200;

export type NotificationInput = {
  url: string;
  eventType: string;
  summary: string;
  originalType: "transaction" | "refund";
  plaintext: Record<string, unknown>;
  outTradeNo: string;
  outRefundNo?: string;
  options?: NotifyOptions;
};

export type DeliveryReport = { id: string; eventType: string; outTradeNo: string; attempts: DeliveryAttempt[] };

export function queueNotification(core: SimulatorCore, input: NotificationInput): void {
  const now = core.now();
  const id = crypto.randomUUID();
  const options = { ...core.state.notifyDefaults, ...input.options };
  const delivery: SimDelivery = {
    id,
    url: input.url,
    body: "",
    eventType: input.eventType,
    outTradeNo: input.outTradeNo,
    ...(input.outRefundNo === undefined ? {} : { outRefundNo: input.outRefundNo }),
    createdAt: now,
    nextAttemptAt: now + (options.delaySeconds ?? 0) * 1000,
    failures: 0,
    delivered: false,
    gaveUp: false,
    probeAccepted: false,
    options,
    attempts: [],
  };
  // Sealed once; every retry re-signs the same body with a new timestamp and nonce.
  core.track(
    sealedBody(id, now, input).then((body) => {
      delivery.body = body;
    }),
  );
  core.state.deliveries.push(delivery);
  forgetOldDeliveries(core);
}

async function sealedBody(id: string, createdAt: number, input: NotificationInput): Promise<string> {
  const nonce = randomAlphanumeric(12);
  const ciphertext = await seal(testMerchant.apiV3Key, nonce, input.originalType, JSON.stringify(input.plaintext));
  return JSON.stringify({
    id,
    create_time: cst(createdAt),
    resource_type: "encrypt-resource",
    event_type: input.eventType,
    summary: input.summary,
    resource: { original_type: input.originalType, algorithm: "AEAD_AES_256_GCM", ciphertext, associated_data: input.originalType, nonce },
  });
}

/** Finished deliveries beyond the last 200 are forgotten, to keep the stored state small. */
function forgetOldDeliveries(core: SimulatorCore): void {
  const finished = core.state.deliveries.filter((item) => item.nextAttemptAt === null);
  if (finished.length <= keptFinishedDeliveries) return;
  const forget = new Set(finished.slice(0, finished.length - keptFinishedDeliveries));
  core.state.deliveries = core.state.deliveries.filter((item) => !forget.has(item));
}

/** Makes every attempt that is due; 200 or 204 within 5 s counts as delivered. */
export async function deliverDueNotifications(core: SimulatorCore): Promise<DeliveryReport[]> {
  const now = core.now();
  const due = core.state.deliveries.filter((delivery) => delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now);
  // Claimed before sending, so a concurrent run does not send them again.
  for (const delivery of due) delivery.nextAttemptAt = null;
  const report: DeliveryReport[] = [];
  for (const delivery of due) {
    const made = await attempt(core, delivery, now);
    delivery.attempts.push(...made);
    if (!delivery.delivered && !delivery.probeAccepted) scheduleRetry(delivery, now);
    report.push({ id: delivery.id, eventType: delivery.eventType, outTradeNo: delivery.outTradeNo, attempts: made });
  }
  return report;
}

const received = (status: DeliveryAttempt["status"]) => status === 200 || status === 204;

async function attempt(core: SimulatorCore, delivery: SimDelivery, now: number): Promise<DeliveryAttempt[]> {
  if (delivery.options.probeFirst && delivery.attempts.length === 0) {
    const probe = await send(core, delivery, { kind: "probe_signature" });
    if (received(probe.status)) delivery.probeAccepted = true;
    return [{ at: now, status: probe.status, probe: true, serial: probe.serial }];
  }
  const first = !delivery.attempts.some((earlier) => !earlier.probe);
  const spoil = first ? firstAttemptSpoiler(delivery.options) : undefined;
  const copies = delivery.options.duplicate && first ? 2 : 1;
  const results = await Promise.all(Array.from({ length: copies }, () => send(core, delivery, spoil)));
  if (results.some((result) => received(result.status))) delivery.delivered = true;
  return results.map((result, index) => ({
    at: now,
    status: result.status,
    probe: false,
    serial: result.serial,
    ...(index > 0 ? { duplicate: true } : {}),
  }));
}

function firstAttemptSpoiler({ unknownSerialFirst, skewFirstSeconds }: NotifyOptions): Spoiler | undefined {
  if (unknownSerialFirst) return { kind: "unknown_serial" };
  if (skewFirstSeconds !== undefined) return { kind: "skew", skewSeconds: skewFirstSeconds };
  return undefined;
}

function scheduleRetry(delivery: SimDelivery, now: number): void {
  delivery.failures += 1;
  const wait = retryScheduleSeconds[delivery.failures - 1];
  if (wait === undefined) delivery.gaveUp = true;
  else delivery.nextAttemptAt = now + wait * 1000;
}

/** During a migration ("both") notifications alternate between the two keys. */
function notificationKeyChoice(core: SimulatorCore, delivery: SimDelivery): KeyChoice {
  if (delivery.options.signWith) return delivery.options.signWith;
  if (core.state.mode !== "both") return core.state.mode;
  core.state.alternation += 1;
  return core.state.alternation % 2 === 0 ? "public_key" : "certificate";
}

async function send(
  core: SimulatorCore,
  delivery: SimDelivery,
  spoil?: Spoiler,
): Promise<{ status: DeliveryAttempt["status"]; serial: string }> {
  const signed = await signatureHeaders(core, delivery.body, notificationKeyChoice(core, delivery), spoil);
  const headers = { "Content-Type": "application/json", "Request-ID": randomHex(32).toUpperCase(), ...signed };
  const request = new Request(delivery.url, { method: "POST", headers, body: delivery.body });
  return { status: await merchantAnswer(core, request), serial: signed["Wechatpay-Serial"] };
}

/** The merchant's HTTP status; "timeout" when it takes longer than WeChat Pay waits. */
async function merchantAnswer(core: SimulatorCore, request: Request): Promise<DeliveryAttempt["status"]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      core.options.deliver(request).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      }),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), deliveryTimeoutMs);
      }),
    ]);
  } catch {
    return "network_error";
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
