/** Web Storage that never throws: storage can be disabled, full or blocked (private modes). */
export type KeyValueStore = { get(key: string): string | null; set(key: string, value: string): void };

export function safeStorage(pick: () => Storage): KeyValueStore {
  return {
    get(key) {
      try {
        return pick().getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        pick().setItem(key, value);
      } catch {
        // Nothing to do: the value only lives for this page.
      }
    },
  };
}
