/**
 * fast-check arbitraries built from the published document's JSON Schemas: values a schema
 * accepts, and values it refuses (one mutation each). Only the subset the document uses:
 * objects, strings (lengths, patterns, date, date-time and uri formats), integers, booleans,
 * arrays, enums, consts, oneOf/anyOf and local $refs.
 */
import fc from "fast-check";

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

export type Resolve = (schema: JsonSchema) => JsonSchema;

/** Follows local `$ref`s (`#/components/...`) within `document`. */
export function resolverFor(document: unknown): Resolve {
  const resolve = (schema: JsonSchema): JsonSchema => {
    if (!schema.$ref) return schema;
    const target = schema.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key.replaceAll("~1", "/").replaceAll("~0", "~")], document);
    return resolve(target as JsonSchema);
  };
  return resolve;
}

const regexOf = (pattern: string) => new RegExp(pattern, "u");

/** Visible text made of letters, digits and spaces: what the text rules accept. */
const textUnit = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 äé中文".split(""));

function stringArbitrary(schema: JsonSchema, now: number): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  if (schema.format === "date-time") {
    // A moment the rules accept wherever one is asked for: between 2 hours and 29 days ahead.
    return fc.integer({ min: now + 2 * 3_600_000, max: now + 29 * 86_400_000 }).map((at) => new Date(at).toISOString());
  }
  if (schema.format === "date") {
    // A calendar day within 29 days of today, as a statement's range takes them.
    return fc.integer({ min: now - 29 * 86_400_000, max: now }).map((at) => new Date(at).toISOString().slice(0, 10));
  }
  if (schema.format === "uri") return fc.stringMatching(/^[a-z]{1,12}$/).map((tail) => `https://example.com/${tail}`);
  const fits = (value: string) => [...value].length >= minLength && [...value].length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  if (schema.pattern && !schema.pattern.includes("\\p{")) {
    return fc.stringMatching(regexOf(schema.pattern)).filter(fits);
  }
  if (schema.pattern) {
    const text = fc.string({ unit: textUnit, minLength: Math.max(minLength, 1), maxLength }).filter((value) => value.trim() !== "");
    return text.filter((value) => regexOf(schema.pattern ?? "").test(value) && fits(value));
  }
  // No pattern: the schema takes any text, so any Unicode is sent (lengths in code points, as JSON Schema counts).
  return fc.string({ unit: "grapheme", minLength, maxLength }).filter(fits);
}

/** Values `schema` accepts. */
export function validArbitrary(schema: JsonSchema, resolve: Resolve, now: number): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const next = (child: JsonSchema) => validArbitrary(child, resolve, now);
  if (s.oneOf) return fc.oneof(...s.oneOf.map(next));
  if (s.anyOf) return fc.oneof(...s.anyOf.map(next));
  if (s.allOf?.length === 1 && s.allOf[0]) return next(s.allOf[0]);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== "null") ?? "null") : s.type;
  switch (type) {
    case "string":
      return stringArbitrary(s, now);
    case "integer":
    case "number":
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(next(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    default: {
      const properties = s.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, next(child)]));
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((name) => name in properties) });
    }
  }
}

export type Mutation = { what: string; value: unknown };

/** One way a valid object stops being valid, with what was done to it; null when none applies. */
export function invalidMutations(schema: JsonSchema, value: unknown, resolve: Resolve): Mutation[] {
  const s = resolve(schema);
  const mutations: Mutation[] = [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return mutations;
  const object = value as Record<string, unknown>;
  // For a oneOf body, the variant the value came from is the one whose properties it fits.
  const variants = (s.oneOf ?? s.anyOf)?.flatMap((variant) => {
    const resolved = resolve(variant);
    return resolved.oneOf ?? resolved.anyOf ?? [resolved];
  });
  const variant = variants ? variants.map(resolve).find((v) => Object.keys(object).every((key) => key in (v.properties ?? {}))) : s;
  if (!variant) return mutations;
  if (variant.additionalProperties === false) mutations.push({ what: "an unknown field", value: { ...object, unexpectedField: 1 } });
  for (const name of variant.required ?? []) {
    const { [name]: _, ...rest } = object;
    mutations.push({ what: `no ${name}`, value: rest });
  }
  for (const [name, child] of Object.entries(variant.properties ?? {})) {
    const property = resolve(child);
    if (property.enum && property.enum.length > 1)
      mutations.push({ what: `${name} outside its enum`, value: { ...object, [name]: "not-one-of-them" } });
    if (property.type === "string" || property.pattern || property.maxLength !== undefined) {
      mutations.push({ what: `${name} a number`, value: { ...object, [name]: 12345 } });
      if (property.maxLength !== undefined)
        mutations.push({ what: `${name} too long`, value: { ...object, [name]: "x".repeat(property.maxLength + 1) } });
      if (property.pattern && !regexOf(property.pattern).test("\u202Eevil\u0000")) {
        mutations.push({ what: `${name} against its pattern`, value: { ...object, [name]: "\u202Eevil\u0000" } });
      }
    }
    if (property.type === "integer") {
      mutations.push({ what: `${name} a string`, value: { ...object, [name]: "12" } });
      mutations.push({ what: `${name} a fraction`, value: { ...object, [name]: 1.5 } });
      if (property.maximum !== undefined)
        mutations.push({ what: `${name} over its maximum`, value: { ...object, [name]: property.maximum + 1 } });
      if (property.minimum !== undefined)
        mutations.push({ what: `${name} under its minimum`, value: { ...object, [name]: property.minimum - 1 } });
    }
  }
  return mutations;
}
