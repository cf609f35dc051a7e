import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { errorEnvelopeSchema } from "#contract/envelope";
import { lockedMay, sessionOwnPaths } from "../auth/signed-in-user";
import { doors } from "../limits/doors";
import { signedByWechatPay } from "../wechat-pay/notify/notify-paths";

type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;
type SchemaObject = NonNullable<NonNullable<OpenApiDocument["components"]>["schemas"]>[string];

/**
 * What operations answer besides their own outcomes, added to the generated document in one
 * place so that no route can forget one (docs/api-contract.md, The published document).
 * Each is the contract's error envelope; its `code` says which.
 */
const sharedResponses = {
  BadRequest: "BAD_REQUEST: a path parameter, query, header or body field is not valid; `field` names it",
  Unauthenticated: "UNAUTHENTICATED: no bearer token, or its session has ended",
  EdgeRequired: "EDGE_REQUIRED: the request did not come through the edge worker (docs/decisions/011-origin-trusts-the-edge.md)",
  PayloadTooLarge: "PAYLOAD_TOO_LARGE: the body is larger than 64 KB",
  UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json",
  RateLimited: "RATE_LIMITED: over this door's limit (README, Limits); Retry-After says when to try again",
  AccountLocked: "ACCOUNT_LOCKED: an operator has locked this account; it may read and talk to support, nothing else",
  KeyReused: "IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was already used for a different request",
} as const;

type SharedResponse = keyof typeof sharedResponses;

/** The operations a door's limit guards (`routes` in limits/doors.ts), as "METHOD /path". */
const limitedOperations = new Set<string>(Object.values(doors).flatMap((door) => door.routes));

const methods = ["get", "put", "post", "delete", "patch"] as const;

type ResponseEntry = { description?: string; $ref?: string; content?: Record<string, { schema?: unknown }> };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { in?: string; name?: string }[];
  requestBody?: unknown;
  responses: Record<string, ResponseEntry>;
};

/** `POST /api/orders/{id}/pay` → `postOrdersIdPay`: stable for as long as the path is. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split(/[/{}_-]+/)
    .filter(Boolean);
  return method + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
}

function addResponse(operation: Operation, status: string, shared: SharedResponse): void {
  const existing = operation.responses[status];
  const code = sharedResponses[shared].split(":")[0] ?? shared;
  if (!existing) operation.responses[status] = { $ref: `#/components/responses/${shared}` };
  else if (existing.description !== undefined && !existing.description.includes(code)) {
    existing.description = `${existing.description}; or ${sharedResponses[shared]}`;
  }
}

/**
 * The generated document, completed: an operationId and a security requirement (empty for
 * public operations) on every operation, and the shared answers where they apply — 400
 * where there is anything to validate, 401 behind the bearer token, 413 and 415 where a
 * body is read, 422 where an Idempotency-Key is taken, 429 behind a door's limit, 403
 * EDGE_REQUIRED everywhere but WeChat Pay's notify paths.
 */
export function publishedDocument(generated: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(generated);
  const errorEnvelope = { $ref: "#/components/schemas/ErrorEnvelope" };
  const { $schema: _dialect, ...errorEnvelopeJsonSchema } = z.toJSONSchema(errorEnvelopeSchema, { target: "draft-2020-12" });
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ErrorEnvelope: errorEnvelopeJsonSchema as SchemaObject },
    responses: {
      ...document.components?.responses,
      ...Object.fromEntries(
        Object.entries(sharedResponses).map(([name, description]) => [
          name,
          {
            description,
            content: { "application/json": { schema: errorEnvelope } },
            ...(name === "RateLimited"
              ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } } }
              : {}),
          },
        ]),
      ),
    },
  };
  const errorEnvelopeText = JSON.stringify(errorEnvelopeJsonSchema);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path);
      // One error envelope, referred to: the generator writes it out in full in every answer.
      for (const response of Object.values(operation.responses)) {
        const json = response.content?.["application/json"];
        if (json && JSON.stringify(json.schema) === errorEnvelopeText) json.schema = errorEnvelope;
      }
      // Public operations say so: an empty requirement, not an absent one.
      operation.security ??= [];
      if (operation.security.some((requirement) => "bearerAuth" in requirement)) {
        addResponse(operation, "401", "Unauthenticated");
        const upper = method.toUpperCase();
        if (!sessionOwnPaths.has(path) && !lockedMay(upper, path)) addResponse(operation, "403", "AccountLocked");
      }
      if ((operation.parameters ?? []).length > 0 || operation.requestBody) addResponse(operation, "400", "BadRequest");
      if (operation.requestBody) {
        addResponse(operation, "413", "PayloadTooLarge");
        addResponse(operation, "415", "UnsupportedMediaType");
      }
      if (limitedOperations.has(`${method.toUpperCase()} ${path}`)) addResponse(operation, "429", "RateLimited");
      const keyed = (operation.parameters ?? []).some((parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key");
      if (keyed) addResponse(operation, "422", "KeyReused");
      if (!signedByWechatPay.has(path)) addResponse(operation, "403", "EdgeRequired");
    }
  }
  return document;
}
