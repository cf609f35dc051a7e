import type { ApiPath } from "./client";

/**
 * An origin path with its parameters encoded: apiPath`/api/orders/${id}/pay`. Ids come from
 * forms and addresses, so they are encoded here, once, rather than by each caller.
 */
export function apiPath(parts: TemplateStringsArray, ...params: string[]): ApiPath {
  let path = parts[0] ?? "";
  params.forEach((param, index) => {
    path += encodeURIComponent(param) + (parts[index + 1] ?? "");
  });
  return path as ApiPath;
}

/** The path with a query string of the values given; an absent or empty one is left out. */
export function withQuery(path: ApiPath, query: Readonly<Record<string, string | number | undefined>>): ApiPath {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
