/**
 * The contract's schemas in the browser, fetched on first use. app/contract.client.ts and zod
 * with it are a chunk of their own (about 25 KB gzip) that no page needs to paint or hydrate:
 * a form needs them to check what it sends, and a few API answers to be read. A page with a
 * form fetches them once the browser is idle (useFormInstance), before anyone submits
 * (docs/decisions/036-form-rules-on-demand.md).
 */
import { ApiFailure } from "./api/client";

export type ContractSchemas = typeof import("./contract.client");

let pending: Promise<ContractSchemas> | undefined;

/** The schemas; when they cannot be fetched, the network is what failed, as for a call. */
export function contractSchemas(): Promise<ContractSchemas> {
  if (!pending) {
    const loading: Promise<ContractSchemas> = import("./contract.client").catch(() => {
      // Not remembered: the next use tries again.
      if (pending === loading) pending = undefined;
      throw new ApiFailure("ORIGIN_UNAVAILABLE");
    });
    pending = loading;
  }
  return pending;
}

export function prefetchContractSchemas(): void {
  contractSchemas().catch(() => {});
}
