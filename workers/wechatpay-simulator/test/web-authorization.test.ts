/**
 * WeChat's web authorization as the simulator imitates it (src/web-authorization.ts): the
 * authorize page's checks and its redirect, and the code exchange's refusals, as WeChat
 * answers them (HTTP 200 with errcode).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { emulatedOpenid } from "../src/web-authorization";
import { testMerchant } from "../src/test-only-keys";
import { control, resetSimulator, simulatorBaseUrl, simulatorFetch } from "./support";

beforeEach(async () => {
  await resetSimulator();
});

const page = "https://pay.example/wechat_pay?order=ord_1";
const state = "a".repeat(64);

function authorize(query: Record<string, string>): Promise<Response> {
  const search = new URLSearchParams({
    appid: testMerchant.appid,
    redirect_uri: page,
    response_type: "code",
    scope: "snsapi_base",
    state,
    ...query,
  });
  return simulatorFetch(new Request(`${simulatorBaseUrl}/connect/oauth2/authorize?${search}`, { redirect: "manual" }));
}

async function codeFromWechat(): Promise<string> {
  const answer = await authorize({});
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("Location")!).searchParams.get("code")!;
}

async function exchange(query: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const search = new URLSearchParams({
    appid: testMerchant.appid,
    secret: testMerchant.appSecret,
    grant_type: "authorization_code",
    ...query,
  });
  const answer = await simulatorFetch(new Request(`${simulatorBaseUrl}/sns/oauth2/access_token?${search}`));
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("WeChat's authorize page (snsapi_base)", () => {
  it("sends the browser back to redirect_uri at once, with a code and the state, keeping the page's own query", async () => {
    const answer = await authorize({});
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get("Location")!);
    expect(back.origin + back.pathname).toBe("https://pay.example/wechat_pay");
    expect(back.searchParams.get("order")).toBe("ord_1");
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("code")).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it("refuses an unknown appid, another response type or scope, a state that is not letters and digits, and no redirect_uri", async () => {
    for (const query of <Record<string, string>[]>[
      { appid: "wx0000000000000000" },
      { response_type: "token" },
      { scope: "snsapi_userinfo" },
      { state: "not-letters" },
      { state: "a".repeat(129) },
      { redirect_uri: "javascript:alert(1)" },
      { redirect_uri: "" },
    ]) {
      const answer = await authorize(query);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.headers.get("Location")).toBeNull();
    }
  });
});

describe("the code exchange (/sns/oauth2/access_token)", () => {
  it("gives the openid for the appid once per code, with a token Paydesk never uses", async () => {
    const code = await codeFromWechat();
    const first = await exchange({ code });
    expect(first).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^\w{64}$/),
        expires_in: 7200,
        refresh_token: expect.stringMatching(/^\w{64}$/),
        openid: await emulatedOpenid(testMerchant.appid),
        scope: "snsapi_base",
      },
    });
    expect(first.body.openid).toMatch(/^o[\w-]{27}$/);
    expect(await exchange({ code })).toEqual({ status: 200, body: { errcode: 40163, errmsg: "code been used" } });
  });

  it("refuses a wrong appid, AppSecret or grant type, an unknown code, and a code past five minutes", async () => {
    const code = await codeFromWechat();
    expect((await exchange({ code, appid: "wx0000000000000000" })).body).toEqual({ errcode: 40013, errmsg: "invalid appid" });
    expect((await exchange({ code, secret: "wrong" })).body).toEqual({ errcode: 40125, errmsg: "invalid appsecret" });
    expect((await exchange({ code, grant_type: "client_credential" })).body).toEqual({ errcode: 40002, errmsg: "invalid grant_type" });
    expect((await exchange({ code: "unknowncode" })).body).toEqual({ errcode: 40029, errmsg: "invalid code" });
    // None of those used the code.
    expect((await exchange({ code })).body).toMatchObject({ openid: expect.any(String) });

    const late = await codeFromWechat();
    expect((await control("/clock", { advanceSeconds: 5 * 60 + 1 })).status).toBe(200);
    expect((await exchange({ code: late })).body).toEqual({ errcode: 40029, errmsg: "invalid code" });
  });

  it("answers an injected 500 as WeChat's busy error (HTTP 200, errcode -1), another status as a bare gateway answer", async () => {
    expect((await control("/faults", { kind: "status", status: 500, path: "/sns/oauth2/access_token" })).status).toBe(200);
    expect((await control("/faults", { kind: "status", status: 502, path: "/sns/oauth2/access_token" })).status).toBe(200);
    const code = await codeFromWechat();
    expect(await exchange({ code })).toEqual({ status: 200, body: { errcode: -1, errmsg: "system error" } });
    const gateway = await simulatorFetch(new Request(`${simulatorBaseUrl}/sns/oauth2/access_token?appid=${testMerchant.appid}`));
    expect(gateway.status).toBe(502);
    expect(await gateway.text()).toBe("Bad Gateway");
    expect((await exchange({ code })).body).toMatchObject({ openid: expect.any(String) });
  });

  it("gives a page opened as a snapshot a stand-in openid, marked is_snapshotuser", async () => {
    expect((await control("/web-authorization", { snapshotPages: true })).status).toBe(200);
    const answer = await exchange({ code: await codeFromWechat() });
    expect(answer.body).toEqual({ openid: expect.stringMatching(/^o[\w-]{27}$/), scope: "snsapi_base", is_snapshotuser: 1 });
    expect(answer.body.openid).not.toBe(await emulatedOpenid(testMerchant.appid));
  });
});
