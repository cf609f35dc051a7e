import { describe, expect, it, vi } from "vitest";
import { memoryStore } from "../storage/memory-store-for-tests";
import { ChunkLoadError } from "./chunk-errors";
import { isMobileUserAgent, isShortLinkHost } from "./flags";
import { readPublicConfig, serializePublicConfig, emptyPublicConfig } from "./public-config";
import { createRechargeOrderBodySchema } from "#contract/orders";
import { orderReferrerOf } from "../forms/order-referrer";
import { rememberReferrer } from "./referrer";
import { routeModulesWithChunkLoader } from "./route-chunks";
import { sentryBrowserOptions } from "./sentry-options";

const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36";

describe("flags", () => {
  it("recognises phones, WeChat's browser and desktops", () => {
    expect(isMobileUserAgent(iphone)).toBe(true);
    expect(isMobileUserAgent("Mozilla/5.0 (Linux; Android 15) MicroMessenger/8.0")).toBe(true);
    expect(isMobileUserAgent(desktop)).toBe(false);
  });

  it("matches the configured short-link hosts exactly, ignoring case", () => {
    expect(isShortLinkHost("S.PAYDESK.TEST", ["s.paydesk.test"])).toBe(true);
    expect(isShortLinkHost("paydesk.test", ["s.paydesk.test"])).toBe(false);
    expect(isShortLinkHost("evil-s.paydesk.test", ["s.paydesk.test"])).toBe(false);
    expect(isShortLinkHost("s.paydesk.test", [])).toBe(false);
  });
});

describe("referrers", () => {
  it("keeps the visit's referrer across reloads and the device's first one forever", () => {
    const visit = memoryStore();
    const device = memoryStore();
    expect(rememberReferrer("https://search.example/", visit, device)).toEqual({
      visit: "https://search.example/",
      firstTouch: "https://search.example/",
    });
    // A reload within the visit: document.referrer may now be our own page.
    expect(rememberReferrer("https://paydesk.test/help", visit, device).visit).toBe("https://search.example/");
    // A new visit (new tab session) from elsewhere: the first touch stays.
    expect(rememberReferrer("https://friend.example/", memoryStore(), device)).toEqual({
      visit: "https://friend.example/",
      firstTouch: "https://search.example/",
    });
  });

  it("sends an order at most the contract's 2,048 code points of the first touch, never half of a pair", () => {
    const long = `https://a.example/${"😀".repeat(2100)}`;
    const sent = orderReferrerOf({ visit: "", firstTouch: long });
    expect([...sent]).toHaveLength(2048);
    expect(() => encodeURIComponent(sent)).not.toThrow();
    expect(createRechargeOrderBodySchema.safeParse({ amount: 100, referrer: sent }).success).toBe(true);
    expect(orderReferrerOf({ visit: "", firstTouch: "https://search.example/" })).toBe("https://search.example/");
  });

  it("records a direct first visit as the first touch", () => {
    const device = memoryStore();
    rememberReferrer("", memoryStore(), device);
    expect(rememberReferrer("https://later.example/", memoryStore(), device).firstTouch).toBe("");
  });
});

describe("route chunk loading", () => {
  const manifest = { routes: { root: { id: "root", module: "/assets/root.js" }, check: { id: "check", module: "/assets/check.js" } } };

  // React Router's loadRouteModule: `if (id in modules) return modules[id]`.
  const loadRoute = (modules: Record<string, unknown>, id: string) => (id in modules ? modules[id] : undefined);

  it("shows unloaded routes as not loaded to plain reads, and loads them once when React Router asks", async () => {
    const importModule = vi.fn(async () => ({ default: "check" }));
    const modules = routeModulesWithChunkLoader({
      modules: { root: { default: "root" } },
      manifest,
      session: memoryStore(),
      reload: vi.fn(),
      importModule,
    });
    expect(modules.root).toEqual({ default: "root" });
    expect(modules.check).toBeUndefined();
    expect(importModule).not.toHaveBeenCalled();
    const [a, b] = [loadRoute(modules, "check"), loadRoute(modules, "check")];
    expect(a).toBe(b);
    expect(await a).toEqual({ default: "check" });
    expect(modules.check).toEqual({ default: "check" });
    expect(importModule).toHaveBeenCalledTimes(1);
    expect(loadRoute(modules, "nope")).toBeUndefined();
  });

  it("reloads once for a stale chunk, then fails with a ChunkLoadError", async () => {
    const session = memoryStore();
    const reload = vi.fn();
    const failing = async () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"));
    const first = routeModulesWithChunkLoader({ modules: {}, manifest, session, reload, importModule: failing });
    const pending = loadRoute(first, "check") as Promise<unknown>;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reload).toHaveBeenCalledTimes(1);

    // After the reload the same chunk fails again: no second reload, an error instead.
    const onFailure = vi.fn();
    const second = routeModulesWithChunkLoader({ modules: {}, manifest, session, reload, onFailure, importModule: failing });
    await expect(loadRoute(second, "check")).rejects.toBeInstanceOf(ChunkLoadError);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(onFailure).toHaveBeenCalledWith(expect.any(ChunkLoadError));
    void pending;
  });

  it("fails a chunk that has not loaded within the time limit", async () => {
    vi.useFakeTimers();
    try {
      const modules = routeModulesWithChunkLoader({
        modules: {},
        manifest,
        session: memoryStore(),
        reload: vi.fn(),
        importModule: () => new Promise(() => {}),
      });
      const loading = loadRoute(modules, "check") as Promise<unknown>;
      const outcome = loading.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(119_999);
      await vi.advanceTimersByTimeAsync(1);
      const error = await outcome;
      expect(error).toBeInstanceOf(ChunkLoadError);
      expect((error as ChunkLoadError).reason).toBe("timeout");
      expect((error as Error).message).toBe("Loading chunk check failed.\n(timeout: /assets/check.js)");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("public configuration in the page", () => {
  it("round-trips through the JSON block and cannot close the script element", () => {
    const config = { ...emptyPublicConfig, shortLinkHosts: ["</script><script>alert(1)</script>"] };
    const text = serializePublicConfig(config);
    expect(text).not.toContain("</script>");
    const doc = { getElementById: () => ({ textContent: text }) } as unknown as Document;
    expect(readPublicConfig(doc)).toEqual(config);
  });

  it("falls back to no configuration when the block is missing or broken", () => {
    expect(readPublicConfig({ getElementById: () => null } as unknown as Document)).toEqual(emptyPublicConfig);
    expect(readPublicConfig({ getElementById: () => ({ textContent: "{" }) } as unknown as Document)).toEqual(emptyPublicConfig);
  });
});

describe("the browser's Sentry options", () => {
  const config = { ...emptyPublicConfig, sentryDsn: "https://key@sentry.example/1", sentryEnvironment: "test" };

  it("records no sessions, a replay of every error, with text, inputs and media masked", () => {
    expect(sentryBrowserOptions(config)).toMatchObject({
      dsn: "https://key@sentry.example/1",
      environment: "test",
      replaysSessionSampleRate: 0,
      replaysOnErrorSampleRate: 1,
      replay: { maskAllText: true, maskAllInputs: true, blockAllMedia: true },
    });
  });

  it("collects no bodies, cookies or addresses, and no sign-in or recovery link in any URL it reports", () => {
    const options = sentryBrowserOptions(config, "https://paydesk.test/help");
    expect(options.dataCollection).toEqual({
      httpBodies: [],
      cookies: false,
      userInfo: false,
      urlQueryParams: { deny: ["token", "link"] },
    });
    const event = options.beforeSend({
      request: { url: "https://paydesk.test/recover?link=secret-link&lang=en#top" },
      breadcrumbs: [{ data: { from: "/?token=secret-token", to: "/recover?link=secret-link" } }, { data: { url: "/api/health" } }],
    });
    expect(event.request?.url).toBe("https://paydesk.test/recover?lang=en#top");
    expect(event.breadcrumbs).toEqual([{ data: { from: "/", to: "/recover" } }, { data: { url: "/api/health" } }]);
    expect(options.beforeBreadcrumb({ data: { to: "/recover?link=secret-link&x=1" } })).toEqual({ data: { to: "/recover?x=1" } });
    // A page opened with a recovery link records no replay: a replay keeps the page's address.
    expect(options.replaysOnErrorSampleRate).toBe(1);
    expect(sentryBrowserOptions(config, "https://paydesk.test/recover?link=secret-link").replaysOnErrorSampleRate).toBe(0);
  });

  it("unmasks replays only when the operator sets SENTRY_REPLAY_UNMASKED=true", () => {
    expect(sentryBrowserOptions({ ...config, replayUnmasked: true }).replay).toEqual({
      maskAllText: false,
      maskAllInputs: false,
      blockAllMedia: false,
    });
  });
});
