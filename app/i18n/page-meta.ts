import type { MetaDescriptor } from "react-router";

/**
 * A page's title and description in the page's language. A route's meta replaces its
 * parents', so each page names its own description (search results show it).
 */
export function pageMeta(title: string, description: string, ...more: MetaDescriptor[]): MetaDescriptor[] {
  return [{ title }, { name: "description", content: description }, ...more];
}
