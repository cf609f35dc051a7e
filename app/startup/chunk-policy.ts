/** A route chunk not loaded after this long fails (docs/start-up.md). */
export const chunkTimeoutMs = 120_000;
export const reloadedForKey = "paydesk:reloaded-for";
export const pendingChunkErrorKey = "paydesk:pending-chunk-error";
export const assetErrorsGlobal = "__paydeskAssetErrors";
export const assetErrorEvent = "paydesk:asset-error";
export const appStartedGlobal = "__paydeskStarted";

/** A <script>/<link> that failed to load, as the inline asset watch records it. */
export type AssetFailure = { kind: "script" | "stylesheet"; url: string };
