/**
 * This deploy's time limits on the pages (docs/decisions/055-deploy-time-limits.md): the edge
 * reads the deploy's `TIME_LIMITS` into the public configuration, where they stay out when
 * they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { useRouteLoaderData } from "react-router";
import { defaultTimeLimits, type TimeLimits } from "#contract/time-limits";
import type { PublicConfig } from "./startup/public-config";

/** For a screen: from the root route's data. */
export function useTimeLimits(): TimeLimits {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config?.timeLimits ?? defaultTimeLimits;
}
