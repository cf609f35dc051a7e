/**
 * This deploy's longest texts on the pages (docs/decisions/059-deploy-text-limits.md): the
 * edge reads the deploy's `TEXT_LIMITS` into the public configuration, where they stay out
 * when they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { useRouteLoaderData } from "react-router";
import { defaultTextLimits, type TextLimits } from "#contract/text-limits";
import { type PublicConfig, readPublicConfig } from "./startup/public-config";

/** For a screen: from the root route's data. */
export function useTextLimits(): TextLimits {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config?.textLimits ?? defaultTextLimits;
}

/** For a client action, outside React: from the document's configuration block. */
export function currentTextLimits(): TextLimits {
  return typeof document === "undefined" ? defaultTextLimits : (readPublicConfig(document).textLimits ?? defaultTextLimits);
}

/** A length as the pages write it, in both languages: "2,000". */
export const sayLength = (characters: number): string => characters.toLocaleString("en-US");
