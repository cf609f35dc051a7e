/**
 * This deploy's time limits on the pages (docs/decisions/055-deploy-time-limits.md): the edge
 * reads the deploy's `TIME_LIMITS` into the public configuration, where they stay out when
 * they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { defaultTimeLimits, type TimeLimits } from "#contract/time-limits";
import { useDeploySetting } from "./deploy-settings";

export const useTimeLimits = (): TimeLimits => useDeploySetting("timeLimits", defaultTimeLimits);
