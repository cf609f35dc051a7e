import type { ActionResult } from "./action-result";

/** The fields a failure concerns, the first first; none for a refusal of the whole form. */
export function failedFields(result: ActionResult | undefined): string[] {
  if (!result || result.ok) return [];
  const { field, fields } = result.failure;
  return fields ? Object.keys(fields) : field ? [field] : [];
}

/** The failure to show beside a field, if it concerns that field. */
export function fieldError(result: ActionResult | undefined, name: string): string | undefined {
  if (!result || result.ok) return undefined;
  return result.failure.fields?.[name] ?? (result.failure.field === name ? result.failure.message : undefined);
}
