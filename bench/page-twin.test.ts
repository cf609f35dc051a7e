import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Link, MemoryRouter, NavLink } from "react-router";
import { describe, expect, it } from "vitest";
import { builtWorkerOptions } from "../test/support/built-worker.ts";
import { type TwinLinks, twinElements } from "./page-twin-elements.ts";
import { twinNodes } from "./page-twin.ts";

/** Markup as a router at `path` renders it, without React Router's discovery attribute. */
function rendered(nodes: ReactNode[], path = "/help"): string {
  return withoutDiscover(renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [path] }, ...nodes)));
}
const routerLinks: TwinLinks = { Link, NavLink };
const withoutDiscover = (html: string) => html.replaceAll(' data-discover="true"', "");

describe("a page twin", () => {
  it("keeps the page's own head, and its body without the framework's scripts but with its data blocks", () => {
    const html =
      '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>' +
      '<title>Help</title><meta name="description" content="How it works"/><link rel="modulepreload" href="/assets/a.js"/>' +
      '<style nonce="n">main{color:red}</style><script nonce="n">window.x=1&&2</script><script type="module">import "/a.js"</script>' +
      '</head><body><main hidden=""><p style="margin-top:1px;--gap:2px">A &amp; B</p></main><script type="application/json" id="config">{"a":1}</script><script>window.__ctx={}</script></body></html>';

    const { head, body } = twinNodes(html);

    expect(head).toEqual([
      ["title", {}, "Help"],
      ["meta", { name: "description", content: "How it works" }],
      ["style", { nonce: "n" }, "main{color:red}"],
      ["script", { nonce: "n" }, "window.x=1&&2"],
    ]);
    expect(body).toEqual([
      ["main", { hidden: true }, ["p", { style: { marginTop: "1px", "--gap": "2px" } }, "A & B"]],
      ["script", { type: "application/json", id: "config" }, '{"a":1}'],
    ]);
    expect(renderToStaticMarkup(twinElements(head))).toContain('<script nonce="n">window.x=1&&2</script>');
  });

  it("takes React Router's links for links, and a navigation's links for NavLinks", () => {
    const html =
      '<html><head></head><body><nav><a class="brand" href="/" data-discover="true">Paydesk</a>' +
      '<a class="" href="/" data-discover="true">Home</a><a aria-current="page" class="active" href="/help" data-discover="true">Help</a>' +
      '<a href="/help?lang=zh-CN" hrefLang="zh-CN">中文</a></nav></body></html>';

    const { body } = twinNodes(html);

    expect(body).toEqual([
      [
        "nav",
        {},
        ["Link", { className: "brand", to: "/" }, "Paydesk"],
        ["NavLink", { to: "/", end: true }, "Home"],
        ["NavLink", { to: "/help" }, "Help"],
        ["a", { href: "/help?lang=zh-CN", hrefLang: "zh-CN" }, "中文"],
      ],
    ]);
    // Rendered at /help, the links write what they were captured from.
    expect(rendered(twinElements(body, routerLinks))).toBe(withoutDiscover(html.slice(html.indexOf("<nav>"), html.indexOf("</body>"))));
  });

  it("renders Paydesk's /help, as the built edge serves it, to the same body", async () => {
    const { worker, stubs } = builtWorkerOptions(path.resolve("build/server/wrangler.json"));
    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker, ...stubs] }));
    let html: string;
    try {
      const answer = await mf.dispatchFetch("http://localhost/help", { headers: { "Accept-Language": "en" } });
      expect(answer.status).toBe(200);
      html = await answer.text();
    } finally {
      await mf.dispose();
    }

    const { head, body } = twinNodes(html);

    const bodyStart = html.indexOf(">", html.indexOf("<body")) + 1;
    const ownBody = html
      .slice(bodyStart, html.lastIndexOf("</body>"))
      .replace(/<script(?! type="application\/json")\b[\s\S]*?<\/script>/g, "")
      // React's markers around the framework's own streamed scripts.
      .replace(/<!--[\s\S]*?-->/g, "");
    expect(rendered(twinElements(body, routerLinks))).toBe(withoutDiscover(ownBody));
    // As the browser hydrates it: plain links, the same markup (no NavLink points to /help).
    expect(renderToStaticMarkup(twinElements(body))).toBe(withoutDiscover(ownBody));
    expect(body.length).toBeGreaterThan(0);
    // Its head: the title, the description, the inline styles and Paydesk's start-up scripts.
    const headTags = head.map((node) => (typeof node === "string" ? node : node[0]));
    expect(headTags).toEqual(expect.arrayContaining(["title", "meta", "style", "script"]));
    expect(headTags).not.toContain("link");
  }, 30_000);
});
