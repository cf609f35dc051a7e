/** A submitted form's data, as a client action receives it, from its fields' values: for the forms' unit tests. */
export function formWith(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
