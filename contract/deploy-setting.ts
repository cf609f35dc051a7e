/**
 * Reading a deploy's JSON setting of figures over the product's defaults: `MONEY_LIMITS`
 * (contract/money-limits.ts), `LOCKS` (contract/lock-limits.ts) and `TIME_LIMITS`
 * (contract/time-limits.ts). Each is refused as a whole when any part is wrong, naming it: a
 * deploy that cannot say its rules must not run under guessed ones
 * (docs/decisions/053-deploy-limits.md, docs/decisions/054-deploy-locks.md).
 *
 * Plain TypeScript, no zod: the edge reads these settings too, and carries no zod
 * (docs/decisions/034-lighter-edge.md).
 */

/** A setting that cannot be used: the deploy is misconfigured, and the message says where. */
export class DeploySettingError extends Error {
  override name = "DeploySettingError";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The reader of one setting: absent or blank, `defaults`; otherwise its JSON object, checked
 * to name only the parts `defaults` has (`example` shows a valid one in the refusal), read by
 * `read` and frozen part by part (`frozenParts`). One setting holds for every request of an isolate, so the
 * last one read is kept, and a setting that names only the defaults is the defaults
 * themselves (the pages then carry no figures of their own).
 */
export function settingReader<T extends Record<string, object>>({
  name,
  defaults,
  example,
  read,
}: {
  name: string;
  defaults: T;
  example: string;
  read: (parts: Record<string, unknown>) => T;
}): (setting: string | undefined) => T {
  let last: { text: string; value: T } | undefined;
  return (setting) => {
    const text = setting?.trim() ?? "";
    if (text === "") return defaults;
    if (last?.text === text) return last.value;
    const value = read(settingParts(name, text, defaults, example));
    const kept = JSON.stringify(value) === JSON.stringify(defaults) ? defaults : frozenParts(value);
    last = { text, value: kept };
    return kept;
  };
}

function settingParts(name: string, text: string, defaults: object, example: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DeploySettingError(`${name} must be a JSON object, such as ${example}.`);
  }
  if (!isRecord(parsed)) throw new DeploySettingError(`${name} must be a JSON object.`);
  ownNamesOnly(name, parsed, defaults);
  return parsed;
}

/**
 * One part the setting names, over its defaults: an object whose figures are whole numbers
 * the part has. Only the part's own names count, never ones every object inherits (`toString`).
 */
export function partFigures<T extends Record<string, number>>(
  path: string,
  defaults: T,
  configured: unknown,
  unit: string,
): Record<keyof T & string, number> {
  if (!isRecord(configured)) throw new DeploySettingError(`${path} must be an object.`);
  ownNamesOnly(path, configured, defaults);
  const merged: Record<string, number> = { ...defaults };
  for (const [name, value] of Object.entries(configured)) {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      throw new DeploySettingError(`${path}.${name} must be a positive whole number of ${unit}.`);
    }
    merged[name] = value;
  }
  return merged as Record<keyof T & string, number>;
}

/**
 * One part the setting names, for a setting that only shortens: each figure shorter than its
 * default or the same, never below its shortest (`TIME_LIMITS`, `TEXT_LIMITS`). Absent, the
 * defaults themselves.
 */
export function shortenedPart<T extends Record<string, number>>(
  path: string,
  { defaults, shortest }: { defaults: T; shortest: T },
  configured: unknown,
  unit: string,
): T {
  if (configured === undefined) return defaults;
  const read = partFigures(path, defaults, configured, unit);
  for (const [name, value] of Object.entries(read)) {
    const longest = defaults[name] ?? 0;
    if (value > longest)
      throw new DeploySettingError(`${path}.${name} may only shorten the product's ${longest}, not lengthen it to ${value}.`);
    const least = shortest[name] ?? 1;
    if (value < least) throw new DeploySettingError(`${path}.${name} (${value}) is below ${least}, the shortest it may be.`);
  }
  return read as T;
}

function ownNamesOnly(path: string, value: Record<string, unknown>, defaults: object): void {
  const owner = path.slice(path.lastIndexOf(".") + 1);
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(defaults, name))
      throw new DeploySettingError(`${path}.${name} is not a limit; ${owner} has ${Object.keys(defaults).join(", ")}.`);
  }
}

/**
 * A setting's figures, shared by every reader: the setting and each of its parts frozen, so
 * no reader can change what another reads.
 */
export function frozenParts<Setting extends Record<string, object>>(setting: Setting): Setting {
  for (const part of Object.values(setting)) Object.freeze(part);
  return Object.freeze(setting);
}
