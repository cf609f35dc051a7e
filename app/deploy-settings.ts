/**
 * A deploy's setting as the pages read it (docs/decisions/053-deploy-limits.md, 055, 058, 059):
 * the edge puts the deploy's money, time, task and text limits into the public configuration
 * only where they differ from the product's, so a deploy at the defaults sends the same pages;
 * absent, a setting is the product's.
 */
import { useRouteLoaderData } from "react-router";
import { type DeploySettingName as SettingName, type PublicConfig, readPublicConfig } from "./startup/public-config";

/** The public configuration, as the root route's data holds it. */
const useRootConfig = () => (useRouteLoaderData("root") as { config?: PublicConfig } | undefined)?.config;

/** For a screen: from the root route's data. */
export function useDeploySetting<Name extends SettingName>(
  name: Name,
  product: NonNullable<PublicConfig[Name]>,
): NonNullable<PublicConfig[Name]> {
  return useRootConfig()?.[name] ?? product;
}

/**
 * Whether the edge read the deploy's setting. One it could not read is left out of the
 * configuration, so a screen would state the product's figures for it: a screen whose figure
 * the origin does not check at the moment of the action (a rule on what was made before)
 * says its rule without a figure instead.
 */
export function useDeploySettingRead(name: SettingName): boolean {
  return !useRootConfig()?.unread?.includes(name);
}

/** For a client action, outside React: from the document's configuration block. */
export function currentDeploySetting<Name extends SettingName>(
  name: Name,
  product: NonNullable<PublicConfig[Name]>,
): NonNullable<PublicConfig[Name]> {
  return typeof document === "undefined" ? product : (readPublicConfig(document)[name] ?? product);
}
