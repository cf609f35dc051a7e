/**
 * The first tier of the page cache: recent pages kept in this isolate's memory, so a
 * hit costs no Cache API round trip. Bounded by total size (least recently used go
 * first) and by each page's own shared-cache lifetime.
 */
export type StoredPage = {
  /**
   * The page's UTF-8 bytes cut around each `nonce="<renderedWith>"`: an answer joins them
   * with its own nonce, so a hit neither searches nor encodes the page again.
   */
  pieces: Uint8Array[];
  /** The pieces' total length, what the page costs this tier. */
  bytes: number;
  status: number;
  headers: [string, string][];
  /** The nonce the page was rendered with, renewed on every answer. */
  renderedWith: string;
  expiresAt: number;
  /** Whether the data centre's cache has it too (pages are admitted there when asked for again). */
  shared: boolean;
};

export class PageMemory {
  readonly #pages = new Map<string, StoredPage>();
  #bytes = 0;

  constructor(
    readonly maxBytes = 8 * 1024 * 1024,
    readonly now: () => number = Date.now,
  ) {}

  get(key: string): StoredPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    this.#pages.delete(key);
    if (page.expiresAt <= this.now()) {
      this.#bytes -= page.bytes;
      return undefined;
    }
    this.#pages.set(key, page);
    return page;
  }

  set(key: string, page: StoredPage): void {
    if (page.bytes > this.maxBytes / 8) return;
    const previous = this.#pages.get(key);
    if (previous) {
      this.#pages.delete(key);
      this.#bytes -= previous.bytes;
    }
    this.#pages.set(key, page);
    this.#bytes += page.bytes;
    for (const [oldest, stored] of this.#pages) {
      if (this.#bytes <= this.maxBytes) break;
      this.#pages.delete(oldest);
      this.#bytes -= stored.bytes;
    }
  }

  get size(): number {
    return this.#pages.size;
  }
}
