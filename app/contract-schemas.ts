/**
 * The contract's schemas in the browser, fetched on first use. app/contract.client.ts and zod
 * with it are a chunk of their own (about 25 KB gzip) that no page needs to paint or hydrate:
 * a form needs them to check what it sends, and a few API answers to be read. A page with a
 * form fetches them once the browser is idle (useFormInstance), before anyone submits
 * (docs/decisions/036-form-rules-on-demand.md).
 */
import { ApiFailure } from "./api/client";
import { partOnFirstUse } from "./startup/on-first-use";

export type ContractSchemas = typeof import("./contract.client");

// A fetch that failed is not remembered: the next use tries again.
const schemas = partOnFirstUse("contract-schemas", () => import("./contract.client"));

/** The schemas; when they cannot be fetched, the network is what failed, as for a call. */
export async function contractSchemas(): Promise<ContractSchemas> {
  const loaded = await schemas.prefetch();
  if (!loaded) throw new ApiFailure("ORIGIN_UNAVAILABLE");
  return loaded;
}

export function prefetchContractSchemas(): void {
  void schemas.prefetch();
}
