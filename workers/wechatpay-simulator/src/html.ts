/**
 * HTML escaping for text put into the simulator's pages. Numeric character references, so
 * the same five characters are safe in text and in quoted attribute values alike.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
