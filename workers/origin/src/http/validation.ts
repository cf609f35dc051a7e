import type { Context } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { ApiError, failure } from "./answer";

/** The field a validation issue is about, as the client named it. */
function fieldOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "unrecognized_keys") return [...issue.path, issue.keys[0]].join(".");
  return issue.path.length > 0 ? issue.path.join(".") : undefined;
}

/**
 * Every request body and parameter is validated against its schema (docs/api-contract.md);
 * a failure is a 400 naming the first failing field, never a 500.
 */
export function validationHook(result: { success: true } | { success: false; error: z.ZodError }, c: Context) {
  if (result.success) return undefined;
  return validationFailure(result.error, c);
}

function validationFailure(error: z.ZodError, c: Context): Response {
  const issue = error.issues[0];
  const field = issue ? fieldOf(issue) : undefined;
  const message =
    issue?.code === "unrecognized_keys"
      ? `Unknown field: ${issue.keys.join(", ")}.`
      : issue?.code === "invalid_type" && issue.input === undefined
        ? `${field ?? "A field"} is required.`
        : (issue?.message ?? "The request is not valid.");
  return failure(c, new ApiError("BAD_REQUEST", message, field));
}

/** A JSON body checked as the OpenAPI routes check theirs, for the few routes outside the published contract. */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return validator("json", (value, c): z.output<S> | Response => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : validationFailure(parsed.error, c);
  });
}
