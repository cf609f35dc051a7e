/**
 * A deploy's setting as the pages read it (docs/decisions/053-deploy-limits.md, 055, 058, 059):
 * the edge puts the deploy's money, time, task and text limits into the public configuration
 * only where they differ from the product's, so a deploy at the defaults sends the same pages;
 * absent, a setting is the product's.
 */
import { useRouteLoaderData } from "react-router";
import { type PublicConfig, readPublicConfig } from "./startup/public-config";

type SettingName = "limits" | "timeLimits" | "taskLimits" | "textLimits";

/** For a screen: from the root route's data. */
export function useDeploySetting<Name extends SettingName>(
  name: Name,
  product: NonNullable<PublicConfig[Name]>,
): NonNullable<PublicConfig[Name]> {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config?.[name] ?? product;
}

/** For a client action, outside React: from the document's configuration block. */
export function currentDeploySetting<Name extends SettingName>(
  name: Name,
  product: NonNullable<PublicConfig[Name]>,
): NonNullable<PublicConfig[Name]> {
  return typeof document === "undefined" ? product : (readPublicConfig(document)[name] ?? product);
}
