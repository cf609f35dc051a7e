import { describe, expect, it, vi } from "vitest";
import { memoryStore } from "../storage/memory-store-for-tests";
import type { KeyValueStore } from "../storage/safe-storage";
import { safeNextPath } from "./safe-next";
import { fetchSession } from "./session-call";
import { chooseToken, linkToConfirm, takeLinkToken, type AddressBar } from "./token";

const adoptToken = (bar: AddressBar, store: KeyValueStore) => chooseToken(takeLinkToken(bar), store);

describe("the token helper", () => {
  const token = "tok_0123456789abcdefghij";

  it("adopts a sign-in link's token and removes it from the address bar", () => {
    const store = memoryStore();
    const replace = vi.fn();
    expect(adoptToken({ href: `https://paydesk.test/order?id=7&token=${token}#top`, replace }, store)).toBe(token);
    expect(replace).toHaveBeenCalledWith("/order?id=7#top");
    expect(adoptToken({ href: "https://paydesk.test/", replace: vi.fn() }, store)).toBe(token);
  });

  it("prefers a new link's token over the stored one", () => {
    const store = memoryStore({ "paydesk:token": "tok_old_old_old_old_old" });
    expect(adoptToken({ href: `https://paydesk.test/?token=${token}`, replace: vi.fn() }, store)).toBe(token);
  });

  it("drops a malformed token from the address bar without storing it", () => {
    const store = memoryStore();
    const replace = vi.fn();
    expect(adoptToken({ href: "https://paydesk.test/?token=%3Cscript%3E", replace }, store)).toBeNull();
    expect(replace).toHaveBeenCalledWith("/");
    expect(store.data).toEqual({});
  });

  it("answers none without a link or a stored token", () => {
    expect(adoptToken({ href: "https://paydesk.test/", replace: vi.fn() }, memoryStore())).toBeNull();
  });
});

describe("the session call", () => {
  const user = { id: "u1", handle: "li_wei", displayName: "Li Wei" };

  it("posts with credentials, JSON content type, the bearer token and no body", async () => {
    const fetch = vi.fn(async () => Response.json({ code: "SUCCESS", data: user }));
    expect(await fetchSession("tok_0123456789abcdef", { fetch })).toEqual({ status: "signed-in", user });
    expect(fetch).toHaveBeenCalledWith("/api/user/session", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", Authorization: "Bearer tok_0123456789abcdef" },
      signal: expect.any(AbortSignal),
    });
  });

  it("hands over the token that replaces a single-use sign-in link, apart from the user", async () => {
    const fetch = vi.fn(async () => Response.json({ code: "SUCCESS", data: { ...user, replacementToken: "n".repeat(43) } }));
    expect(await fetchSession("tok_0123456789abcdef", { fetch })).toEqual({ status: "signed-in", user, replacementToken: "n".repeat(43) });
  });

  it("keeps nothing unless the code is SUCCESS", async () => {
    const fetch = vi.fn(async () => Response.json({ code: "UNAUTHENTICATED" }, { status: 401 }));
    expect(await fetchSession(null, { fetch })).toEqual({ status: "signed-out" });
    const odd = vi.fn(async () => Response.json({ code: "success", data: user }));
    expect(await fetchSession("tok_0123456789abcdef", { fetch: odd })).toEqual({ status: "signed-out" });
  });

  it.each([
    ["a network failure", async () => Promise.reject(new TypeError("Failed to fetch"))],
    ["a non-JSON answer", async () => new Response("<html>bad gateway</html>", { status: 502 })],
    ["the edge's ORIGIN_UNAVAILABLE", async () => Response.json({ code: "ORIGIN_UNAVAILABLE" }, { status: 502 })],
  ])("swallows %s and reports the service unreachable", async (_, impl) => {
    expect(await fetchSession("tok_0123456789abcdef", { fetch: vi.fn(impl) })).toEqual({ status: "unreachable" });
  });

  it("gives up after the time-out", async () => {
    const hanging = vi.fn(
      (_url: string, init?: RequestInit) =>
        new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
    );
    const started = Date.now();
    expect(await fetchSession(null, { fetch: hanging as unknown as typeof fetch, timeoutMs: 50 })).toEqual({ status: "unreachable" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("safe ?next= paths", () => {
  it.each([
    ["/order?id=1", "/order?id=1"],
    [null, "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["order", "/"],
    ["/.//evil.example", "/"],
    ["/a/..//evil.example", "/"],
    ["/%2e//evil.example", "/"],
    ["/help/../order?id=2", "/order?id=2"],
  ])("%s → %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe("a sign-in link while another account is signed in", () => {
  const link = "link_token_0123456789abcdefghij";
  const stored = "stored_token_0123456789abcdefgh";

  it("is held for the person's choice, not adopted", () => {
    const store = memoryStore({ "paydesk:token": stored });
    expect(linkToConfirm(link, store)).toBe(link);
    expect(store.data["paydesk:token"]).toBe(stored);
  });

  it("is adopted at once when nobody is signed in, or it is the same token", () => {
    expect(linkToConfirm(link, memoryStore())).toBeNull();
    expect(linkToConfirm(link, memoryStore({ "paydesk:token": link }))).toBeNull();
    expect(linkToConfirm(null, memoryStore({ "paydesk:token": stored }))).toBeNull();
  });
});
