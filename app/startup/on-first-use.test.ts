import { describe, expect, it, vi } from "vitest";
import { memoryStore } from "../storage/memory-store-for-tests";
import { ChunkLoadError } from "./chunk-errors";
import { reloadedForKey } from "./chunk-policy";
import type { ChunkPolicy } from "./chunk-loading";
import { mayBeSignedIn, partOnFirstUse } from "./on-first-use";

const chunkUrl = "https://paydesk.test/assets/transfer-steps.client-Ab12.js";
const failedFetch = () => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${chunkUrl}`));
const settledWithin = async (promise: Promise<unknown>, ms = 20) =>
  Promise.race([
    promise.then(
      () => "resolved",
      () => "rejected",
    ),
    new Promise((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);

describe("a part fetched on first use", () => {
  it("is fetched once, and read at once by every later use", async () => {
    const module = { Steps: "steps" };
    const importPart = vi.fn(async () => module);
    const policy = { session: memoryStore(), reload: vi.fn() };
    const part = partOnFirstUse("transfer-steps", importPart, () => policy);
    expect(await part.prefetch()).toBe(module);
    expect(await part.load()).toBe(module);
    // Arrived: a render reads it without suspending (use() would throw a promise otherwise).
    expect(part.use()).toBe(module);
    expect(importPart).toHaveBeenCalledTimes(1);
  });

  it("does nothing when a prefetch fails, and the next use fetches again, at an address the browser has not seen fail", async () => {
    const module = { Steps: "steps" };
    const importPart = vi.fn(failedFetch);
    // The browser remembers the failed address; the same module under a query of its own is fetched anew.
    const importUrl = vi.fn().mockRejectedValueOnce(new TypeError(`Failed to fetch dynamically imported module: ${chunkUrl}?retry=1`));
    importUrl.mockResolvedValue(module);
    const policy = { session: memoryStore(), reload: vi.fn(), onFailure: vi.fn() };
    const part = partOnFirstUse("transfer-steps", importPart, () => policy, { importUrl });
    expect(await part.prefetch()).toBeNull();
    expect(policy.reload).not.toHaveBeenCalled();
    expect(policy.onFailure).not.toHaveBeenCalled();
    expect(await part.prefetch()).toBeNull();
    expect(await part.load()).toBe(module);
    expect(importPart).toHaveBeenCalledTimes(1);
    expect(importUrl.mock.calls).toEqual([[`${chunkUrl}?retry=1`], [`${chunkUrl}?retry=2`]]);
  });

  it("where the browser does not name the failed address, imports the part as before", async () => {
    const module = { Steps: "steps" };
    const importPart = vi.fn().mockRejectedValueOnce(new TypeError("Importing a module script failed.")).mockResolvedValue(module);
    const importUrl = vi.fn();
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session: memoryStore(), reload: vi.fn() }), { importUrl });
    expect(await part.prefetch()).toBeNull();
    expect(await part.prefetch()).toBe(module);
    expect(importPart).toHaveBeenCalledTimes(2);
    expect(importUrl).not.toHaveBeenCalled();
  });

  it("says a reload is needed when its own file arrived but one it imports failed, and reports that once", async () => {
    const importPart = vi.fn(failedFetch);
    // Chromium names the address it was asked for, not the imported file that failed.
    const importUrl = vi.fn((url: string) => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)));
    const arrived = vi.fn(() => true);
    const report = vi.fn();
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session: memoryStore(), reload: vi.fn() }), {
      importUrl,
      arrived,
      report,
    });
    expect(part.needsReload()).toBe(false);
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(true);
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(true);
    expect(arrived.mock.calls).toEqual([[chunkUrl], [`${chunkUrl}?retry=1`]]);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]![0]).toBeInstanceOf(ChunkLoadError);
    expect((report.mock.calls[0]![0] as ChunkLoadError).url).toBe(chunkUrl);
  });

  it("judges a retry by the address it asked for, whose own fetch may have come where the first did not", async () => {
    const importPart = vi.fn(failedFetch);
    const importUrl = vi.fn((url: string) => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)));
    // The first fetch failed on the way; the retry's file came, and what it imports did not.
    const arrived = vi.fn((url: string) => url.endsWith("?retry=1"));
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session: memoryStore(), reload: vi.fn() }), {
      importUrl,
      arrived,
      report: vi.fn(),
    });
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(false);
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(true);
  });

  it("stops saying a reload is needed once a later fetch brings the part", async () => {
    const module = { Steps: "steps" };
    const importPart = vi.fn(failedFetch);
    const importUrl = vi.fn().mockResolvedValue(module);
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session: memoryStore(), reload: vi.fn() }), {
      importUrl,
      arrived: () => true,
      report: vi.fn(),
    });
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(true);
    expect(await part.prefetch()).toBe(module);
    expect(part.needsReload()).toBe(false);
  });

  it("does not judge an error that names no address: the mark stays as it was", async () => {
    const unnamed = () => Promise.reject(new TypeError("Importing a module script failed."));
    const arrived = vi.fn(() => true);
    const fresh = partOnFirstUse("transfer-steps", vi.fn(unnamed), () => ({ session: memoryStore(), reload: vi.fn() }), {
      arrived,
      report: vi.fn(),
    });
    expect(await fresh.prefetch()).toBeNull();
    expect(fresh.needsReload()).toBe(false);
    expect(arrived).not.toHaveBeenCalled();

    // Stuck first; then a failure that names nothing leaves it stuck.
    const stuck = partOnFirstUse("transfer-steps", vi.fn(failedFetch), () => ({ session: memoryStore(), reload: vi.fn() }), {
      importUrl: vi.fn(unnamed),
      arrived: () => true,
      report: vi.fn(),
    });
    expect(await stuck.prefetch()).toBeNull();
    expect(stuck.needsReload()).toBe(true);
    expect(await stuck.prefetch()).toBeNull();
    expect(stuck.needsReload()).toBe(true);
  });

  it("does not say a reload is needed when its own file did not arrive, nor once it has come", async () => {
    const module = { Steps: "steps" };
    const importPart = vi.fn(failedFetch);
    const importUrl = vi.fn().mockResolvedValue(module);
    const report = vi.fn();
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session: memoryStore(), reload: vi.fn() }), {
      importUrl,
      arrived: () => false,
      report,
    });
    expect(await part.prefetch()).toBeNull();
    expect(part.needsReload()).toBe(false);
    expect(await part.prefetch()).toBe(module);
    expect(part.needsReload()).toBe(false);
    expect(report).not.toHaveBeenCalled();
  });

  it("reloads the page once for a part that fails to load, then reports it and rejects, naming the browser's address", async () => {
    const session = memoryStore();
    const first: ChunkPolicy = { session, reload: vi.fn(), onFailure: vi.fn() };
    const loading = partOnFirstUse("transfer-steps", failedFetch, () => first).load();
    // The page is reloading: the load never settles.
    expect(await settledWithin(loading)).toBe("pending");
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect(first.onFailure).not.toHaveBeenCalled();

    // The reloaded page meets the same failure: no second reload, a ChunkLoadError instead.
    const second: ChunkPolicy = { session, reload: vi.fn(), onFailure: vi.fn() };
    const error = await partOnFirstUse("transfer-steps", failedFetch, () => second)
      .load()
      .catch((failure: unknown) => failure);
    expect(second.reload).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).url).toBe(chunkUrl);
    expect((error as Error).message).toBe(`Loading chunk transfer-steps failed.\n(error: ${chunkUrl})`);
    expect(second.onFailure).toHaveBeenCalledWith(error);
  });

  it("tries again on the next load after one failed for good", async () => {
    const session = memoryStore();
    session.set(reloadedForKey, chunkUrl);
    const module = { Steps: "steps" };
    const importPart = vi.fn(failedFetch);
    const importUrl = vi.fn().mockResolvedValue(module);
    const part = partOnFirstUse("transfer-steps", importPart, () => ({ session, reload: vi.fn() }), { importUrl });
    await expect(part.load()).rejects.toBeInstanceOf(ChunkLoadError);
    expect(await part.load()).toBe(module);
    expect(importUrl).toHaveBeenCalledWith(`${chunkUrl}?retry=1`);
  });

  it("is never thought signed in on the server", () => {
    expect(typeof document).toBe("undefined");
    expect(mayBeSignedIn()).toBe(false);
  });
});
