/**
 * A page's JSON data blocks (`<script type="application/json">`): data the server hands
 * the browser before hydration, never run, so the CSP is untouched.
 */

/** JSON safe inside the block: "<" is escaped, so the text cannot close the element. */
export function jsonBlockText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The block's value; null when it is missing or unreadable (a page cut short). */
export function readJsonBlock(doc: Document, id: string): unknown {
  const text = doc.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
