/**
 * The contract test (docs/api-contract.md, The published document): requests generated from
 * the published document — valid ones, and invalid ones made by one mutation each — sent to
 * the built origin in workerd; every answer checked against the document with a JSON Schema
 * 2020-12 validator. It fails on any 5xx, any status the operation does not document, any
 * answer that breaks its documented schema, any valid request refused as malformed (400,
 * 413, 415) and any invalid request accepted (2xx).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidMutations, type JsonSchema, resolverFor, validArbitrary } from "./request-arbitraries.ts";
import { type ServedOrigin, serveOrigin } from "./served-origin.ts";

type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; schema: JsonSchema };
type ResponseObject = { $ref?: string; content?: Record<string, { schema?: JsonSchema }>; headers?: Record<string, unknown> };
type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, ResponseObject>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, ResponseObject> } };

const published = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../contract/openapi.json"), "utf8")) as Document;
const resolve = resolverFor(published);
const seed = 20261123;
const validPerOperation = 12;
const now = Date.now();

/** Signs out the session it is sent with: sent last, so the other operations keep theirs. */
const last = new Set(["postUserLogout"]);

const operations = Object.entries(published.paths)
  .flatMap(([route, item]) => Object.entries(item).map(([method, operation]) => ({ route, method: method.toUpperCase(), operation })))
  .sort((a, b) => Number(last.has(a.operation.operationId)) - Number(last.has(b.operation.operationId)));

type Request = { kind: "valid" | "invalid"; what: string; path: string; init: RequestInit };
type Outcome = { request: Request; status: number; problem?: string };

let origin: ServedOrigin;
const outcomes: Outcome[] = [];

const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(published, "openapi.json");
const validators = new Map<string, ValidateFunction>();

const pointer = (...keys: string[]) => keys.map((key) => key.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** The documented answer of an operation for a status, its shared response followed, and where it is in the document. */
function documentedResponse(route: string, method: string, status: string): { response?: ResponseObject; base: string } {
  const operation = published.paths[route]?.[method.toLowerCase()];
  const response = operation?.responses[status];
  if (!response?.$ref) return { response, base: pointer("paths", route, method.toLowerCase(), "responses", status) };
  const name = response.$ref.split("/").at(-1) ?? "";
  return { response: published.components.responses[name], base: pointer("components", "responses", name) };
}

function responseSchemaValidator(route: string, method: string, status: string): ValidateFunction | null {
  const { response, base } = documentedResponse(route, method, status);
  if (!response?.content?.["application/json"]?.schema) return null;
  const ref = `openapi.json#/${base}/content/application~1json/schema`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

function authFor(operation: Operation): Record<string, string> {
  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("operatorAuth")) return { Authorization: `Bearer ${origin.adminToken}` };
  if (schemes.includes("operatorSession")) return { Authorization: `Bearer ${origin.operatorToken}` };
  if (schemes.includes("bearerAuth")) return { Authorization: `Bearer ${origin.userTokens[0]}` };
  return {};
}

/** Valid values for every parameter and the body, as one request. */
function validRequests(route: string, method: string, operation: Operation): Request[] {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.name !== "cursor");
  const parameterValues = fc.record(
    Object.fromEntries(
      parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, validArbitrary(parameter.schema, resolve, now)]),
    ),
    { requiredKeys: parameters.filter((parameter) => parameter.required).map((parameter) => `${parameter.in}:${parameter.name}`) },
  );
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  const body = bodySchema ? validArbitrary(bodySchema, resolve, now) : fc.constant(undefined);
  return fc.sample(fc.tuple(parameterValues, body), { numRuns: validPerOperation, seed }).map(([values, value]) => ({
    kind: "valid",
    what: "valid",
    ...requestOf(route, method, inOrder(values), value),
  }));
}

/**
 * A range's `from` before its `to`, the one rule between two parameters that the document can
 * only say in words (the ledger's entries.csv refuses a range that is empty or backwards, the
 * statement's days one that is backwards; the other ranges take either). The drawn moments
 * are within 29 days of each other.
 */
function inOrder(values: Record<string, unknown>): Record<string, unknown> {
  const from = values["query:from"];
  const to = values["query:to"];
  if (typeof from !== "string" || typeof to !== "string" || Date.parse(from) < Date.parse(to)) return values;
  // Days (YYYY-MM-DD) include both ends: one day is a range of its own.
  if (from.length === 10 && to.length === 10) return { ...values, "query:from": to, "query:to": from };
  const later = Date.parse(from) === Date.parse(to) ? new Date(Date.parse(from) + 1_000).toISOString() : from;
  return { ...values, "query:from": to, "query:to": later };
}

function requestOf(route: string, method: string, values: Record<string, unknown>, body: unknown) {
  let pathname = route;
  const query = new URLSearchParams();
  // The edge's credential and the caller's token are added as each is sent (`send`).
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const [where, name = ""] = key.split(":");
    if (where === "path") pathname = pathname.replace(`{${name}}`, encodeURIComponent(String(value)));
    if (where === "query") query.set(name, String(value));
    // A key for each request, as a client makes one (a repeated key would replay).
    if (where === "header")
      headers[name] = name === "Idempotency-Key" ? `${String(value).slice(0, 90)}${crypto.randomUUID()}` : String(value);
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const search = query.size > 0 ? `?${query}` : "";
  return {
    path: pathname + search,
    init: { method, headers, body: body === undefined ? null : JSON.stringify(body) } satisfies RequestInit,
  };
}

/** A valid request of an operation, changed in one way that the document forbids (each with a key of its own). */
function invalidRequests(route: string, operation: Operation, valid: Request[]): Request[] {
  const requests: Request[] = [];
  const sample = valid[0];
  if (!sample) return requests;
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  if (bodySchema && typeof sample.init.body === "string") {
    for (const mutation of invalidMutations(bodySchema, JSON.parse(sample.init.body), resolve)) {
      requests.push({
        ...sample,
        kind: "invalid",
        what: `body: ${mutation.what}`,
        init: { ...sample.init, body: JSON.stringify(mutation.value) },
      });
    }
    requests.push({ ...sample, kind: "invalid", what: "body: an array", init: { ...sample.init, body: "[]" } });
  }
  for (const parameter of operation.parameters ?? []) {
    const headers = sample.init.headers as Record<string, string>;
    if (parameter.in === "path") {
      const [pathname = "", search] = sample.path.split("?");
      const index = route.split("/").indexOf(`{${parameter.name}}`);
      for (const wrong of ["not-an-id", "x".repeat(300), "%E2%80%AEord"]) {
        const segments = pathname.split("/");
        segments[index] = wrong;
        const changed = segments.join("/") + (search ? `?${search}` : "");
        requests.push({ ...sample, kind: "invalid", what: `path ${parameter.name} ${wrong.slice(0, 12)}`, path: changed });
      }
    }
    if (parameter.in === "query") {
      const url = new URL(sample.path, "http://x");
      if (parameter.required) {
        url.searchParams.delete(parameter.name);
        requests.push({ ...sample, kind: "invalid", what: `no query ${parameter.name}`, path: url.pathname + url.search });
      }
      url.searchParams.set(parameter.name, "\u202E!bad value!");
      requests.push({ ...sample, kind: "invalid", what: `query ${parameter.name} malformed`, path: url.pathname + url.search });
    }
    if (parameter.in === "header" && parameter.name === "Idempotency-Key") {
      requests.push({
        ...sample,
        kind: "invalid",
        what: "a malformed Idempotency-Key",
        init: { ...sample.init, headers: { ...headers, "Idempotency-Key": "bad key!" } },
      });
      if (parameter.required) {
        const { "Idempotency-Key": _, ...rest } = headers;
        requests.push({ ...sample, kind: "invalid", what: "no Idempotency-Key", init: { ...sample.init, headers: rest } });
      }
    }
  }
  // A key of its own for each, so that what is refused is the change, not a reused key.
  return requests.map((request) => {
    const headers = request.init.headers as Record<string, string>;
    const key = headers["Idempotency-Key"];
    if (!key || key === "bad key!") return request;
    return { ...request, init: { ...request.init, headers: { ...headers, "Idempotency-Key": `invalid-${crypto.randomUUID()}` } } };
  });
}

async function send(route: string, method: string, operation: Operation, request: Request): Promise<Outcome> {
  const headers = { ...origin.edge, ...authFor(operation), ...(request.init.headers as Record<string, string>) };
  const response = await fetch(origin.url + request.path, { ...request.init, headers, signal: AbortSignal.timeout(15_000) });
  const status = response.status;
  const text = await response.text();
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}`);
  const documented = operation.responses[String(status)];
  if (!documented) problems.push(`status ${status} is not documented: ${text.slice(0, 200)}`);
  if (request.kind === "valid" && [400, 413, 415].includes(status))
    problems.push(`a valid request refused as malformed: ${text.slice(0, 200)}`);
  if (request.kind === "invalid" && status < 300) problems.push(`an invalid request (${request.what}) accepted`);
  // An answer is of a media type its status documents: JSON, or another (text/csv) where the document says so.
  const mediaTypes = Object.keys(documentedResponse(route, method, String(status)).response?.content ?? {});
  const mediaType = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (documented && mediaTypes.length > 0 && !mediaTypes.includes(mediaType))
    problems.push(`answered ${mediaType || "no Content-Type"} where the document says ${mediaTypes.join(" or ")}`);
  const validate = documented ? responseSchemaValidator(route, method, String(status)) : null;
  if (validate) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("the answer is not JSON");
    }
    if (body !== undefined && !validate(body))
      problems.push(`the answer breaks its schema: ${ajv.errorsText(validate.errors)}; ${text.slice(0, 200)}`);
  }
  if (status === 429 && !response.headers.get("Retry-After")) problems.push("429 without Retry-After");
  return problems.length > 0 ? { request, status, problem: `${method} ${request.path}: ${problems.join("; ")}` } : { request, status };
}

/**
 * Every operation's requests, made before the first is sent: generating some (a pattern's
 * strings) takes seconds, and a pause that long between requests outlives the server's
 * keep-alive, so the next request would meet a closed connection.
 */
const planned = new Map<(typeof operations)[number], Request[]>();

beforeAll(async () => {
  for (const entry of operations) {
    const valid = validRequests(entry.route, entry.method, entry.operation);
    planned.set(entry, [...valid, ...invalidRequests(entry.route, entry.operation, valid)]);
  }
  origin = await serveOrigin();
}, 240_000);

afterAll(async () => {
  await origin?.stop();
  const count = (kind: Request["kind"]) => outcomes.filter((outcome) => outcome.request.kind === kind).length;
  const statuses: Record<string, number> = {};
  for (const { status } of outcomes) statuses[status] = (statuses[status] ?? 0) + 1;
  console.log(
    `contract test: ${operations.length} operations, ${outcomes.length} requests (${count("valid")} valid, ${count("invalid")} invalid), ` +
      `${outcomes.filter((outcome) => outcome.problem).length} failures; statuses ${JSON.stringify(statuses)}`,
  );
});

describe("the published contract, against the origin in workerd", () => {
  it("serves the document kept in contract/openapi.json", async () => {
    const answer = await fetch(`${origin.url}/api/openapi.json`, { headers: origin.edge });
    expect(await answer.json()).toEqual(published);
  });

  it.each(operations.map((entry) => [`${entry.method} ${entry.route}`, entry] as const))("%s", async (_, entry) => {
    const { route, method, operation } = entry;
    const requests = planned.get(entry) ?? [];
    const problems: string[] = [];
    for (const request of requests) {
      const outcome = await send(route, method, operation, request);
      outcomes.push(outcome);
      if (outcome.problem) problems.push(outcome.problem);
    }
    expect(requests.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("answers a method a path does not document 405, with Allow naming those it does", async () => {
    const templates = Object.entries(published.paths).map(([route, item]) => ({
      matches: new RegExp(`^${route.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      methods: Object.keys(item).map((method) => method.toUpperCase()),
    }));
    // /api/orders/recharge is also /api/orders/{id}: a method the other template documents is not asked.
    const routedElsewhere = (concrete: string, method: string) =>
      templates.some((template) => template.matches.test(concrete) && template.methods.includes(method));
    for (const [route, item] of Object.entries(published.paths)) {
      const documented = Object.keys(item).map((method) => method.toUpperCase());
      const concrete = route.replace(/\{[^}]+\}/g, "x");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter(
        (m) => !documented.includes(m) && !routedElsewhere(concrete, m),
      )) {
        const answer = await fetch(origin.url + concrete, { method, headers: origin.edge });
        expect(answer.status, `${method} ${route}`).toBe(405);
        // Allow names every method any documented template of this path takes (GET brings HEAD).
        const allowed = new Set(templates.filter((template) => template.matches.test(concrete)).flatMap((template) => template.methods));
        expect(answer.headers.get("Allow")?.split(", ").sort(), `${method} ${route}`).toEqual(
          [...allowed].flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])).sort(),
        );
      }
    }
  });
});
