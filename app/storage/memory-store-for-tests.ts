import type { KeyValueStore } from "./safe-storage";

/** A store in memory, for tests: what was set is in `data`. */
export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    get: (key) => data[key] ?? null,
    set: (key, value) => {
      data[key] = value;
    },
  };
}
