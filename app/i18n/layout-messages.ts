/**
 * The layout's messages in the page's language. Every page needs them, so they come with
 * the page, not in the JavaScript every page shares: the server renders the page's
 * language into a JSON data block in <head> (app/root.tsx) and the browser reads it before
 * it hydrates (app/entry.client.tsx). The server holds both languages
 * (app/messages/layout.server.ts). A language switch reloads the document, so the browser
 * only ever needs the one it was given.
 */
import type { LayoutMessages } from "../messages/layout.server";
import type { Language } from "./languages";
import { useLanguage } from "./messages";

export type { LayoutMessages };

export const layoutMessagesElementId = "paydesk-layout-messages";

const provided = new Map<Language, LayoutMessages>();

/** The server gives both languages; the browser, the page's own. */
export function provideLayoutMessages(messages: Partial<Record<Language, LayoutMessages>>): void {
  for (const [language, text] of Object.entries(messages) as [Language, LayoutMessages][]) provided.set(language, text);
}

export function layoutMessagesIn(language: Language): LayoutMessages {
  const text = provided.get(language);
  if (!text) throw new Error(`The layout's messages in ${language} were not provided`);
  return text;
}

export function useLayoutMessages(): LayoutMessages {
  return layoutMessagesIn(useLanguage());
}

/** A template's `{name}` places filled in: `fill("Hello, {name}", { name })`. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (place, key: string) => values[key] ?? place);
}
