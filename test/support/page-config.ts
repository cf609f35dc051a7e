import { type PublicConfig, publicConfigElementId } from "#app/startup/public-config";

/**
 * The public configuration a page's HTML carries (app/startup/public-config.ts); null when
 * the page has none. The block is JSON whose "<" is escaped, so it ends at its "</script>".
 */
export function pageConfigOf(html: string): PublicConfig | null {
  const text = new RegExp(`<script type="application/json" id="${publicConfigElementId}"[^>]*>([^<]*)</script>`).exec(html)?.[1];
  return text === undefined ? null : (JSON.parse(text) as PublicConfig);
}
