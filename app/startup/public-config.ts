/**
 * Configuration the browser needs before hydration. The root loader renders it into a
 * JSON data block (not a script that runs, so the CSP is untouched); it is the same
 * for every user, so pages stay cacheable.
 */
export type PublicConfig = {
  sentryDsn: string | null;
  sentryEnvironment: string;
  replayUnmasked: boolean;
  shortLinkHosts: string[];
};

export const publicConfigElementId = "paydesk-config";

export const emptyPublicConfig: PublicConfig = {
  sentryDsn: null,
  sentryEnvironment: "production",
  replayUnmasked: false,
  shortLinkHosts: [],
};

/** JSON safe to place inside `<script type="application/json">`. */
export function serializePublicConfig(config: PublicConfig): string {
  return JSON.stringify(config).replace(/</g, "\\u003c");
}

export function readPublicConfig(doc: Document): PublicConfig {
  const text = doc.getElementById(publicConfigElementId)?.textContent;
  if (!text) return emptyPublicConfig;
  try {
    return { ...emptyPublicConfig, ...(JSON.parse(text) as Partial<PublicConfig>) };
  } catch {
    return emptyPublicConfig;
  }
}
