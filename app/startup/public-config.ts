/**
 * Configuration the browser needs before hydration. The root loader renders it into a
 * JSON data block (not a script that runs, so the CSP is untouched); it is the same
 * for every user, so pages stay cacheable.
 */
import type { Limits } from "#contract/money-limits";
import type { TaskLimits } from "#contract/task-limits";
import type { TextLimits } from "#contract/text-limits";
import type { TimeLimits } from "#contract/time-limits";
import { jsonBlockText, readJsonBlock } from "./json-block";

export type PublicConfig = {
  sentryDsn: string | null;
  sentryEnvironment: string;
  replayUnmasked: boolean;
  shortLinkHosts: string[];
  /** The deploy's money limits; absent where they are the product's own (app/money-limits.ts). */
  limits?: Limits;
  /** The deploy's time limits on orders, claims and sessions; absent where they are the product's own (app/time-limits.ts). */
  timeLimits?: TimeLimits;
  /** The deploy's bounds on a task's completions and deadline; absent where they are the product's own (app/task-limits.ts). */
  taskLimits?: TaskLimits;
  /** The deploy's longest texts people type; absent where they are the product's own (app/text-limits.ts). */
  textLimits?: TextLimits;
  /**
   * The deploy's settings the edge could not read (reported): a page states none of their
   * figures, since the product's may not be the deploy's (app/deploy-settings.ts). Absent when
   * every setting was read.
   */
  unread?: DeploySettingName[];
};

/** The deploy's settings the pages read from the public configuration. */
export type DeploySettingName = "limits" | "timeLimits" | "taskLimits" | "textLimits";

export const publicConfigElementId = "paydesk-config";

export const emptyPublicConfig: PublicConfig = {
  sentryDsn: null,
  sentryEnvironment: "production",
  replayUnmasked: false,
  shortLinkHosts: [],
};

export const serializePublicConfig = (config: PublicConfig): string => jsonBlockText(config);

export function readPublicConfig(doc: Document): PublicConfig {
  const found = readJsonBlock(doc, publicConfigElementId) as Partial<PublicConfig> | null;
  return { ...emptyPublicConfig, ...found };
}
