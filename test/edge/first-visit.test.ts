import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// What a page carries so that it paints, and starts, with as little as possible
// (docs/decisions/029-first-paint-and-first-visit.md).

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await exports.default.fetch(new Request(`https://paydesk.test${path}`, { headers }));
  return { response, html: await response.text() };
}

function styleNonce(response: Response): string {
  const match = /style-src [^;]*'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "");
  if (!match?.[1]) throw new Error("no style nonce in the CSP");
  return match[1];
}

const styleElements = (html: string) => [...html.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)];
const linkedSheets = (html: string) => [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map((match) => match[0]);

function layoutBlock(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="paydesk-layout-messages">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error("no layout messages block");
  return JSON.parse(match[1]) as Record<string, unknown>;
}

function inlineManifest(html: string): { routes: Record<string, unknown> } {
  const match = /window\.__reactRouterManifest = ([\s\S]*?);\n/.exec(html);
  if (!match?.[1]) throw new Error("no inline route manifest");
  return JSON.parse(match[1]) as { routes: Record<string, unknown> };
}

describe("a page's first visit", () => {
  it("inlines the app's styles under the response's nonce, and links no style sheet", async () => {
    for (const path of ["/", "/help", "/task", "/login", "/transfer"]) {
      const { response, html } = await page(`${path}?visit=${crypto.randomUUID()}`);
      const styles = styleElements(html);
      expect(styles, path).toHaveLength(1);
      const [, attributes = "", css = ""] = styles[0]!;
      expect(attributes).toContain(`nonce="${styleNonce(response)}"`);
      // The layout's, the landing page's, the task board's and the sign-in page's rules alike.
      for (const rule of [".app-shell", ".if-token", ".quick-actions", ".task-list", ".passkey-sign-in"])
        expect(css, `${path} ${rule}`).toContain(rule);
      expect(linkedSheets(html), path).toEqual([]);
    }
  });

  it("renews the style's nonce on a cache hit with the CSP's", async () => {
    const path = `/help?visit=${crypto.randomUUID()}`;
    await page(path);
    let hit = await page(path);
    for (let tries = 0; tries < 20 && hit.response.headers.get("X-Edge-Cache") !== "HIT"; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      hit = await page(path);
    }
    expect(hit.response.headers.get("X-Edge-Cache")).toBe("HIT");
    expect(styleElements(hit.html)[0]?.[1]).toContain(`nonce="${styleNonce(hit.response)}"`);
  });

  it("still links the printed receipt's own sheet", async () => {
    const { html } = await page("/wallet/receipts/transfer/tx_any");
    expect(linkedSheets(html)).toEqual([expect.stringMatching(/href="\/assets\/receipt-[^"]+\.css"/)]);
  });

  it("carries the layout's messages in the page's language only", async () => {
    const en = layoutBlock((await page("/help")).html);
    expect(en.signIn).toBe("Sign in");
    expect(en.availableBalance).toBe("Available balance {amount}");
    const zh = layoutBlock((await page("/help", { Cookie: "lang=zh-CN" })).html);
    expect(zh.signIn).toBe("登录");
    expect(JSON.stringify(zh)).not.toContain("Sign in");
  });

  it("carries the manifest of its own routes only, and answers the rest from /__manifest", async () => {
    const { html } = await page("/");
    const manifest = inlineManifest(html);
    expect(Object.keys(manifest.routes).sort()).toEqual(["home", "root"]);
    // Neither preloaded nor imported: the inline manifest only names the whole one's file.
    expect(html).not.toMatch(/(?:href="|import\s*["'])\/assets\/manifest-/);
    const version = /"version": "([^"]+)"/.exec(html)?.[1];
    expect(version).toBeTruthy();
    const patch = await exports.default.fetch(new Request(`https://paydesk.test/__manifest?paths=%2Fwallet&version=${version}`));
    expect(patch.status).toBe(200);
    expect(patch.headers.get("Cache-Control")).toContain("immutable");
    expect(Object.keys((await patch.json()) as object)).toContain("wallet");
  });
});
