import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contentMessages } from "#app/messages/content";

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await exports.default.fetch(new Request(`https://paydesk.test${path}`, { headers, redirect: "manual" }));
  return { response, body: await response.text() };
}

async function settledHit(path: string, headers: Record<string, string>) {
  for (let tries = 0; tries < 20; tries += 1) {
    const answer = await page(path, headers);
    if (answer.response.headers.get("X-Edge-Cache") === "HIT") return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never came from the cache`);
}

describe("the page language", () => {
  it("follows the lang cookie, else Accept-Language, else English", async () => {
    const zh = await page("/help", { Cookie: "lang=zh-CN", "Accept-Language": "en" });
    expect(zh.body).toContain('<html lang="zh-CN"');
    expect(zh.body).toContain(`<h1 id="help-title">${contentMessages["zh-CN"].helpTitle}</h1>`);
    expect(zh.response.headers.get("Content-Language")).toBe("zh-CN");
    expect(zh.response.headers.get("Vary")).toContain("Accept-Language");

    const browser = await page("/help", { "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8" });
    expect(browser.body).toContain('<html lang="zh-CN"');
    const english = await page("/help", { "Accept-Language": "fr-FR" });
    expect(english.body).toContain('<html lang="en"');
    expect(english.body).toContain(`<h1 id="help-title">${contentMessages.en.helpTitle}</h1>`);
  });

  it("caches each language apart: a Chinese hit never serves an English visitor", async () => {
    const path = `/tos?visit=${crypto.randomUUID()}`;
    await page(path, { Cookie: "lang=zh-CN" });
    const zh = await settledHit(path, { Cookie: "lang=zh-CN" });
    expect(zh.body).toContain('<html lang="zh-CN"');
    const en = await page(path, { Cookie: "lang=en" });
    expect(en.response.headers.get("X-Edge-Cache")).toBe("MISS");
    expect(en.body).toContain('<html lang="en"');
  });

  it("stores a choice made with ?lang= in the cookie and returns to the clean URL, uncached", async () => {
    const { response } = await page("/order?status=paid&lang=zh-CN");
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/order?status=paid");
    expect(response.headers.get("Set-Cookie")).toBe("lang=zh-CN; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("writes no link to another site on the page of an address that reads as one", async () => {
    for (const path of ["//evil.example/x", "/\\evil.example/x"]) {
      const { response, body } = await page(path);
      expect(response.status, path).toBe(404);
      expect(body, path).not.toMatch(/href="[/\\]{2}/);
      expect(body, path).toContain('href="/evil.example/x?lang=zh-CN"');
    }
  });

  it("goes out private, with this answer's own nonce, whether rendered now or kept: no cache after the edge may share it", async () => {
    const first = await page("/tos", { "Accept-Language": "en" });
    const kept = await settledHit("/tos", { "Accept-Language": "en" });
    for (const { response } of [first, kept]) {
      expect(response.headers.get("Cache-Control")).toBe("private, max-age=0, must-revalidate");
    }
    const nonceOf = (body: string) => /nonce="([^"]+)"/.exec(body)?.[1];
    expect(nonceOf(kept.body)).toBeTruthy();
    expect(nonceOf(kept.body)).not.toBe(nonceOf(first.body));
  });

  it("returns only to a path of this site: a path that reads as another host goes home", async () => {
    for (const path of ["//evil.example?lang=en", "/\\evil.example/x?lang=zh-CN", "//evil.example/%2e%2e?lang=en"]) {
      const { response } = await page(path);
      expect(response.status, path).toBe(303);
      expect(response.headers.get("Location"), path).toBe("/");
    }
    const { response } = await page("/help//faq?lang=en");
    expect(response.headers.get("Location")).toBe("/help//faq");
  });

  it("ends a sentence that closes on a link with the language's own full stop", async () => {
    const zh = await page("/no-such-page", { Cookie: "lang=zh-CN" });
    expect(zh.response.status).toBe(404);
    expect(zh.body).toMatch(/>查看帮助<\/a>。<\/p>/);
    const en = await page("/no-such-page", { Cookie: "lang=en" });
    expect(en.body).toMatch(/>read the help<\/a>\.<\/p>/);
  });

  it("ignores a ?lang= naming a language it does not have", async () => {
    const { response } = await page("/help?lang=fr");
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/help");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it("renders the boot-failure explanation of the inline asset watch in the page's language", async () => {
    const { body } = await page("/help", { Cookie: "lang=zh-CN" });
    expect(body).toContain("Paydesk 未能完成加载");
    expect(body).not.toContain("Paydesk could not finish loading");
  });
});

describe("a sign-in link's page", () => {
  it("is never cached, and the token is repeated in no link of the page", async () => {
    const token = "link_token_0123456789abcdefghijk";
    const first = await page(`/help?token=${token}`);
    const second = await page(`/help?token=${token}`);
    expect(second.response.headers.get("X-Edge-Cache")).toBe("BYPASS");
    expect(second.response.headers.get("Cache-Control")).toBe("no-store");
    expect(first.body).not.toContain(token);
  });

  it("is never cached when it is a recovery link (`?link=`) either, which draws the link's form and is written nowhere in it", async () => {
    const link = "recovery_link_0123456789abcdefghijk";
    const first = await page(`/recover?link=${link}`);
    const second = await page(`/recover?link=${link}`);
    expect(second.response.headers.get("X-Edge-Cache")).toBe("BYPASS");
    expect(second.response.headers.get("Cache-Control")).toBe("no-store");
    expect(first.body).toContain('name="intent" value="link"');
    // Not in a field, the form's address or the language switch (docs/decisions/052-recovery-link-leaves-the-address-bar.md).
    expect(first.body).not.toContain(link);
  });

  it("drops a token from the language switch's redirect", async () => {
    const { response } = await page("/help?token=abc&lang=en");
    expect(response.headers.get("Location")).toBe("/help");
  });
});
