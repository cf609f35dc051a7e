import { describe, expect, it } from "vitest";
import { chooseFlow, h5UrlReturningTo, pollDelayMs } from "./choose-flow";

const all = ["native", "h5", "jsapi"] as const;

describe("chooseFlow", () => {
  it("gives a desktop the QR code, a phone's browser H5, WeChat's own browser JSAPI", () => {
    expect(chooseFlow(all, { isMobile: false, inWechat: false })).toBe("native");
    expect(chooseFlow(all, { isMobile: true, inWechat: false })).toBe("h5");
    expect(chooseFlow(all, { isMobile: true, inWechat: true })).toBe("jsapi");
  });

  it("falls back to the QR code when a flow is not offered, inside WeChat too", () => {
    expect(chooseFlow(["native", "h5"], { isMobile: true, inWechat: true })).toBe("native");
    expect(chooseFlow(["native"], { isMobile: true, inWechat: false })).toBe("native");
    expect(chooseFlow(["h5"], { isMobile: false, inWechat: false })).toBe("h5");
    expect(chooseFlow([], { isMobile: false, inWechat: false })).toBeNull();
  });
});

describe("h5UrlReturningTo", () => {
  it("adds the return address, encoded, to WeChat's H5 URL", () => {
    const url = h5UrlReturningTo(
      "https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1&package=2",
      "https://pay.example/pay_success?order=ord_1",
    );
    expect(new URL(url).searchParams.get("redirect_url")).toBe("https://pay.example/pay_success?order=ord_1");
    expect(new URL(url).searchParams.get("prepay_id")).toBe("wx1");
  });
});

describe("pollDelayMs", () => {
  it("backs off from 2 s to at most 15 s", () => {
    expect(pollDelayMs(0)).toBe(2_000);
    expect(pollDelayMs(1)).toBe(3_000);
    expect(pollDelayMs(10)).toBe(15_000);
  });
});
