import { describe, expect, it, vi } from "vitest";
import type { KeyValueStore } from "../storage/safe-storage";
import { forgetRecoveryLink, heldRecoveryLink, takeRecoveryLink } from "./recovery-link";

function tabStore(): KeyValueStore {
  const data = new Map<string, string>();
  return { get: (key) => data.get(key) ?? null, set: (key, value) => void data.set(key, value) };
}

const link = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

describe("a recovery link", () => {
  it("leaves the address bar of /recover and is held by the tab, the rest of the address kept", () => {
    const store = tabStore();
    const replace = vi.fn();
    expect(takeRecoveryLink({ href: `https://paydesk.test/recover?lang=en&link=${link}#form`, replace }, store)).toBe(link);
    expect(replace).toHaveBeenCalledWith("/recover?lang=en#form");
    expect(heldRecoveryLink(store)).toBe(link);
  });

  it("is taken from /recover however the router matches it: another case, a trailing slash", () => {
    const store = tabStore();
    const replace = vi.fn();
    expect(takeRecoveryLink({ href: `https://paydesk.test/Recover/?link=${link}`, replace }, store)).toBe(link);
    expect(replace).toHaveBeenCalledWith("/Recover/");
  });

  it("is held as given when cut short, so the form can say it is not complete", () => {
    const store = tabStore();
    takeRecoveryLink({ href: "https://paydesk.test/recover?link=AbCd", replace: vi.fn() }, store);
    expect(heldRecoveryLink(store)).toBe("AbCd");
  });

  it("is not taken from another page's address, and an empty one is only removed", () => {
    const store = tabStore();
    const replace = vi.fn();
    expect(takeRecoveryLink({ href: `https://paydesk.test/login?link=${link}`, replace }, store)).toBeNull();
    expect(replace).not.toHaveBeenCalled();
    expect(takeRecoveryLink({ href: "https://paydesk.test/recover?link=", replace }, store)).toBeNull();
    expect(replace).toHaveBeenCalledWith("/recover");
    expect(heldRecoveryLink(store)).toBeNull();
  });

  it("keeps the one held when /recover is opened again without one, until it is let go", () => {
    const store = tabStore();
    takeRecoveryLink({ href: `https://paydesk.test/recover?link=${link}`, replace: vi.fn() }, store);
    const replace = vi.fn();
    expect(takeRecoveryLink({ href: "https://paydesk.test/recover", replace }, store)).toBeNull();
    expect(replace).not.toHaveBeenCalled();
    expect(heldRecoveryLink(store)).toBe(link);
    forgetRecoveryLink(store);
    expect(heldRecoveryLink(store)).toBeNull();
  });
});
