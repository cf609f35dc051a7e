import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createNonce } from "../../workers/edge/security-headers";

async function page(url: string) {
  const response = await exports.default.fetch(new Request(url));
  return { response, html: await response.text() };
}

function cspNonce(response: Response): string {
  const match = /script-src [^;]*'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "");
  if (!match?.[1]) throw new Error("no script nonce in the CSP");
  return match[1];
}

function scriptNonces(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\bnonce="([^"]*)"/g)].map((match) => match[1] ?? "");
}

describe("the nonce", () => {
  it("is 18 random bytes in base64, as btoa writes them, fresh each time across many pools", () => {
    const seen = new Set<string>();
    const byteValues = new Set<number>();
    for (let i = 0; i < 2000; i += 1) {
      const nonce = createNonce();
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
      const bytes = Uint8Array.from(atob(nonce), (char) => char.charCodeAt(0));
      expect(bytes).toHaveLength(18);
      expect(btoa(String.fromCharCode(...bytes))).toBe(nonce);
      for (const byte of bytes) byteValues.add(byte);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2000);
    // 36,000 random bytes cover all 256 values; a pool reused or left unfilled would not.
    expect(byteValues.size).toBe(256);
  });
});

describe("security headers on pages", () => {
  it("sends a CSP whose nonce every inline script carries, fresh on each response, cache hits included", async () => {
    const url = `https://paydesk.test/help?visit=${crypto.randomUUID()}`;
    const seen = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const { response, html } = await page(url);
      const nonce = cspNonce(response);
      expect(seen.has(nonce)).toBe(false);
      seen.add(nonce);
      const inline = [...html.matchAll(/<script\b[^>]*>/g)].filter((tag) => !/type="application\/json"/.test(tag[0]));
      expect(inline.length).toBeGreaterThanOrEqual(3);
      expect(scriptNonces(html)).toHaveLength(inline.length);
      expect(new Set(scriptNonces(html))).toEqual(new Set([nonce]));
      if (i === 0) expect(response.headers.get("X-Edge-Cache")).toBe("MISS");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await page(url)).response.headers.get("X-Edge-Cache")).toBe("HIT");
  });

  it("forbids framing and sniffing, limits referrers and features", async () => {
    const { response } = await page("https://paydesk.test/");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("Permissions-Policy")).toContain("camera=()");
  });

  it("sends HSTS on https only", async () => {
    expect((await page("https://paydesk.test/tos")).response.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
    expect((await page("http://localhost/tos")).response.headers.get("Strict-Transport-Security")).toBeNull();
  });
});
