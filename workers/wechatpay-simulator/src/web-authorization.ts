/**
 * WeChat's web authorization for official accounts (网页授权), the silent `snsapi_base` scope
 * alone: a page inside WeChat is sent to `/connect/oauth2/authorize`, and WeChat sends it
 * straight back to `redirect_uri` with a code, asking the person nothing; the merchant's
 * server swaps the code for the person's openid at `/sns/oauth2/access_token` with the
 * account's AppSecret. A code is good once, for 5 minutes. Refusals come as HTTP 200 with
 * `errcode` and `errmsg`, as WeChat's do.
 *
 * Every browser here is the same WeChat user, so an appid always gets the same openid: what
 * WeChat gives one person for one official account.
 */
import type { SimulatorCore } from "./core";
import { defaultTimeoutDelayMs, takeFault } from "./faults";
import { officialAccounts } from "./keys";
import { randomAlphanumeric } from "./sim-crypto";

const codeLifetimeMs = 5 * 60_000;
const accessTokenSeconds = 7_200;

/** WeChat's openid for the emulated person and an appid: 28 characters, like WeChat's. */
export async function emulatedOpenid(appid: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`openid:${appid}:the emulated payer`));
  const base64url = btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
  return `o${base64url.slice(0, 27)}`;
}

const refusalPage = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** `GET /connect/oauth2/authorize`: WeChat's page, which redirects at once for `snsapi_base`. */
export async function authorize(core: SimulatorCore, url: URL): Promise<Response> {
  const appid = url.searchParams.get("appid") ?? "";
  const redirectUri = url.searchParams.get("redirect_uri") ?? "";
  const state = url.searchParams.get("state") ?? "";
  if (!officialAccounts[appid]) return refusalPage(400, "appid参数错误");
  if (url.searchParams.get("response_type") !== "code") return refusalPage(400, "response_type参数错误");
  if (url.searchParams.get("scope") !== "snsapi_base") return refusalPage(400, "scope参数错误");
  // WeChat takes a state of letters and digits, at most 128 bytes.
  if (!/^[A-Za-z0-9]{0,128}$/.test(state)) return refusalPage(400, "state参数错误");
  let back: URL;
  try {
    back = new URL(redirectUri);
  } catch {
    return refusalPage(400, "redirect_uri参数错误");
  }
  if (back.protocol !== "https:" && back.protocol !== "http:") return refusalPage(400, "redirect_uri参数错误");
  const code = randomAlphanumeric(32);
  const codes = core.state.authorizationCodes ?? {};
  for (const [old, given] of Object.entries(codes)) if (core.now() > given.expiresAt) delete codes[old];
  core.state.authorizationCodes = codes;
  const snapshot = core.state.snapshotPages === true;
  codes[code] = {
    appid,
    openid: snapshot ? await emulatedOpenid(`snapshot:${appid}`) : await emulatedOpenid(appid),
    expiresAt: core.now() + codeLifetimeMs,
    used: false,
    ...(snapshot ? { snapshot } : {}),
  };
  back.searchParams.set("code", code);
  back.searchParams.set("state", state);
  return new Response(null, { status: 302, headers: { Location: back.toString() } });
}

const refusal = (errcode: number, errmsg: string) => Response.json({ errcode, errmsg });

/** `GET /sns/oauth2/access_token`: the code swapped for the openid (and a token Paydesk never uses). */
export async function accessToken(core: SimulatorCore, url: URL): Promise<Response> {
  const fault = takeFault(core, "GET", url.pathname);
  if (fault?.kind === "timeout") await core.sleep(fault.delayMs ?? defaultTimeoutDelayMs);
  // WeChat says it is busy with HTTP 200 and errcode -1; a gateway in front of it answers a bare 5xx.
  if (fault?.kind === "status" && (fault.status ?? 500) === 500) return refusal(-1, "system error");
  if (fault?.kind === "status" || fault?.kind === "timeout")
    return new Response("Bad Gateway", { status: fault.kind === "timeout" ? 504 : (fault.status ?? 500) });
  const appid = url.searchParams.get("appid") ?? "";
  const account = officialAccounts[appid];
  if (!account) return refusal(40013, "invalid appid");
  if (url.searchParams.get("secret") !== account.appSecret) return refusal(40125, "invalid appsecret");
  if (url.searchParams.get("grant_type") !== "authorization_code") return refusal(40002, "invalid grant_type");
  const given = core.state.authorizationCodes?.[url.searchParams.get("code") ?? ""];
  if (!given || given.appid !== appid || core.now() > given.expiresAt) return refusal(40029, "invalid code");
  if (given.used) return refusal(40163, "code been used");
  given.used = true;
  if (given.snapshot) return Response.json({ openid: given.openid, scope: "snsapi_base", is_snapshotuser: 1 });
  return Response.json({
    access_token: randomAlphanumeric(64),
    expires_in: accessTokenSeconds,
    refresh_token: randomAlphanumeric(64),
    openid: given.openid,
    scope: "snsapi_base",
  });
}
