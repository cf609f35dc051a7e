/**
 * This deploy's longest texts on the pages (docs/decisions/059-deploy-text-limits.md): the
 * edge reads the deploy's `TEXT_LIMITS` into the public configuration, where they stay out
 * when they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { defaultTextLimits, type TextLimits } from "#contract/text-limits";
import { currentDeploySetting, useDeploySetting } from "./deploy-settings";

export const useTextLimits = (): TextLimits => useDeploySetting("textLimits", defaultTextLimits);
export const currentTextLimits = (): TextLimits => currentDeploySetting("textLimits", defaultTextLimits);

/** A length as the pages write it, in both languages: "2,000". */
export const sayLength = (characters: number): string => characters.toLocaleString("en-US");
