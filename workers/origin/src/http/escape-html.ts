/**
 * Text for an HTML page, in element content and in quoted attribute values alike: the five
 * characters that could end either become numeric character references.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
