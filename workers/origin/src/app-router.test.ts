import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { createOriginApp } from "./app";

/** app.ts names its router instead of letting Hono's default pick one on the first request. */
describe("the origin's router", () => {
  it.each([false, true])("is the one Hono's default settles on for its routes (emulation %s)", async (emulation) => {
    const app = await createOriginApp({ emulation });
    expect(app.router).toBeInstanceOf(TrieRouter);
    const byDefault = new SmartRouter<null>({ routers: [new RegExpRouter(), new TrieRouter()] });
    for (const { method, path } of app.routes) byDefault.add(method, path, null);
    byDefault.match("GET", "/api/health");
    // Should the routes ever fit RegExpRouter, it would match faster: drop the choice in app.ts.
    expect(byDefault.activeRouter).toBeInstanceOf(TrieRouter);
  });
});
