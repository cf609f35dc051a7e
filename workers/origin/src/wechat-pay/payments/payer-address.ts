import { z } from "zod";
import type { WechatPay } from "../config";

const ipAddress = z.union([z.ipv4(), z.ipv6()]);

/**
 * The payer's address for H5's payer_client_ip: `CF-Connecting-IP` when Cloudflare set it,
 * else `X-Real-IP`, which the edge worker sets from its own `CF-Connecting-IP`.
 */
export function payerAddress(header: (name: string) => string | undefined, wechat: WechatPay): string | null {
  const raw = (header("CF-Connecting-IP") ?? header("X-Real-IP") ?? "").trim();
  if (ipAddress.safeParse(raw).success) return raw;
  // Local emulation may have no client address at all: the simulator takes loopback.
  return wechat.simulator ? "127.0.0.1" : null;
}
