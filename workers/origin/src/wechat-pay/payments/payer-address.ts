import { z } from "zod";
import type { WechatPay } from "../config";

const ipAddress = z.union([z.ipv4(), z.ipv6()]);

/** The payer's address for H5's payer_client_ip: the address the origin believes (http/edge-trust.ts). */
export function payerAddress(believed: string | null, wechat: WechatPay): string | null {
  const raw = (believed ?? "").trim();
  if (ipAddress.safeParse(raw).success) return raw;
  // Local emulation may have no client address at all: the simulator takes loopback.
  return wechat.simulator ? "127.0.0.1" : null;
}
