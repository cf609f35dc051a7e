/**
 * WeChat Pay's checks before it reads a request: the Accept, User-Agent and Content-Type
 * headers, and the merchant's Authorization signature over method, path+query, timestamp,
 * nonce and raw body. Its refusals are unsigned.
 */
import { type Answer, errorAnswer } from "./answers";
import type { SimulatorCore } from "./core";
import { merchantKeyId, merchants } from "./keys";
import { signatureType } from "./signing";
import { verify } from "./sim-crypto";

export type Authorization = { mchid: string; nonceStr: string; timestamp: string; serialNo: string; signature: string };

/** Authorization: `WECHATPAY2-SHA256-RSA2048 k="v",…` in any order (the documentation: 无顺序要求). */
export function parseAuthorization(header: string | null): Authorization | null {
  if (!header?.startsWith(`${signatureType} `)) return null;
  const fields = new Map<string, string>();
  for (const part of header.slice(signatureType.length + 1).split(",")) {
    const [, name, value] = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part) ?? [];
    if (name === undefined || value === undefined || fields.has(name)) return null;
    fields.set(name, value);
  }
  const [mchid, nonceStr, timestamp, serialNo, signature] = ["mchid", "nonce_str", "timestamp", "serial_no", "signature"].map((name) =>
    fields.get(name),
  );
  if (!mchid || !nonceStr || !timestamp || !serialNo || !signature) return null;
  return { mchid, nonceStr, timestamp, serialNo, signature };
}

const refuse = (status: number, code: string, message: string) => ({ refusal: { ...errorAnswer(status, code, message), signed: false } });

function headersRefusal(request: Request, method: string): { refusal: Answer } | null {
  const accept = request.headers.get("Accept") ?? "";
  if (!/application\/json|application\/\*|\*\/\*/.test(accept))
    return refuse(400, "INVALID_REQUEST", "HTTP头缺少Accept或不接受application/json");
  if (!request.headers.get("User-Agent")) return refuse(400, "INVALID_REQUEST", "HTTP头缺少User-Agent");
  if (method === "POST" && !(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    return refuse(400, "INVALID_REQUEST", "Content-Type须为application/json");
  }
  return null;
}

/** The merchant a request comes from, or WeChat Pay's refusal. */
export async function authenticate(
  core: SimulatorCore,
  request: Request,
  method: string,
  path: string,
  raw: string,
): Promise<{ refusal: Answer } | { mchid: string }> {
  const refused = headersRefusal(request, method);
  if (refused) return refused;
  const auth = parseAuthorization(request.headers.get("Authorization"));
  if (!auth) return refuse(401, "SIGN_ERROR", "Authorization格式不正确");
  if (!merchants[auth.mchid]) return refuse(400, "MCH_NOT_EXISTS", "商户号不存在");
  const key = (await core.keys()).merchants.get(merchantKeyId(auth.mchid, auth.serialNo));
  if (!key) return refuse(401, "SIGN_ERROR", "商户证书序列号有误");
  if (!/^\d{1,12}$/.test(auth.timestamp) || Math.abs(Number(auth.timestamp) - Math.floor(core.now() / 1000)) > 300) {
    // The wording WeChat Pay answers with (seen in its developer community).
    return refuse(401, "SIGN_ERROR", "Http头Authorization中的timestamp与发起请求的时间不得超过5分钟");
  }
  const message = `${method}\n${path}\n${auth.timestamp}\n${auth.nonceStr}\n${raw}\n`;
  if (!(await verify(key, message, auth.signature))) return refuse(401, "SIGN_ERROR", "签名错误");
  return { mchid: auth.mchid };
}
