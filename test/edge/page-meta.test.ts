import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { languages } from "#app/i18n/languages";
import { contentMessages } from "#app/messages/content";
import { homeMessages } from "#app/messages/home";

/** Every page a visitor can land on (docs/screens.md), with a query so that each is a fresh render. */
const pages = [
  "/",
  "/login",
  "/task",
  "/check",
  "/pay",
  "/wechat_pay",
  "/pay_success",
  "/recharge",
  "/order",
  "/transfer",
  "/help",
  "/tos",
  "/contact",
  "/support",
  "/account",
  "/wallet",
  "/wallet/receipts/transfer/trf_1",
  "/no-such-page",
];

async function descriptionOf(path: string, language: string): Promise<{ title: string; description: string }> {
  const response = await exports.default.fetch(
    new Request(`https://paydesk.test${path}?meta=${crypto.randomUUID()}`, { headers: { Cookie: `lang=${language}` } }),
  );
  const html = await response.text();
  const descriptions = [...html.matchAll(/<meta name="description" content="([^"]*)"/g)].map((match) => match[1] ?? "");
  expect(descriptions, `${path} [${language}] has one description`).toHaveLength(1);
  return { title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "", description: descriptions[0] ?? "" };
}

describe("each page's meta description", () => {
  it("is the page's own, in the page's language", async () => {
    for (const language of languages) {
      const seen = new Map<string, string>();
      for (const path of pages) {
        const { title, description } = await descriptionOf(path, language);
        expect(title, path).not.toBe("");
        expect(description.length, `${path} [${language}]`).toBeGreaterThan(15);
        expect(seen.get(description), `${path} repeats the description of ${seen.get(description)}`).toBeUndefined();
        seen.set(description, path);
      }
    }
    expect((await descriptionOf("/", "zh-CN")).description).toBe(homeMessages["zh-CN"].description);
    expect((await descriptionOf("/help", "en")).description).toBe(contentMessages.en.helpDescription.replaceAll("'", "&#x27;"));
  });
});
