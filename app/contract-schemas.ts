/**
 * The groups of the contract's schemas, each fetched on first use: a `.client` module under
 * app/schemas/, which the edge's server build leaves empty, so the edge bundles no zod
 * (docs/decisions/034-lighter-edge.md). zod is a chunk of its own that the groups share.
 * - A route's own form, or an API call a route makes, cannot import a schema statically:
 *   zod would come with every first visit to the route (test/client-build holds this).
 * - A signed-in screen's part takes its forms' schemas from a group too, fetched once the
 *   browser is idle (usePrefetchWhenIdle), so the screen is drawn without waiting for zod.
 * - What the signed-out forms' submit runs (`/login`, `/recover`, `/contact`) imports its
 *   schemas statically instead: it is itself fetched once the browser is idle.
 * Each group holds the schemas its forms check, or the answer its call reads, and few others
 * (docs/decisions/067-form-rules-with-their-form.md).
 */
import { ApiFailure } from "./api/client";
import { type Part, PartNeedsReload, partOnFirstUse } from "./startup/on-first-use";

export type SchemaGroup<M> = {
  /** The group; when it cannot be fetched, the network is what failed, as for a call. */
  load(): Promise<M>;
  /** For usePrefetchWhenIdle: a form drawn at once has its rules before anyone submits. */
  part: Part<M>;
};

function schemasOnFirstUse<M>(name: string, importGroup: () => Promise<M>): SchemaGroup<M> {
  // A failed fetch of the group's own chunk is not remembered: the next use asks again. A
  // chunk it imports (zod) that failed is, by the browser, for the life of the page: only a
  // reload brings it (decision 067), and the form says so (decision 068). The page is not
  // reloaded here: what was typed stays.
  const part = partOnFirstUse(name, importGroup);
  return {
    part,
    async load() {
      const loaded = await part.prefetch();
      if (!loaded) throw part.needsReload() ? new PartNeedsReload() : new ApiFailure("ORIGIN_UNAVAILABLE");
      return loaded;
    },
  };
}

/** An order read by the payment screens and `/order`: its detail is parsed, for its payment state. */
export const orderDetailSchemas = schemasOnFirstUse("order-detail-schemas", () => import("./schemas/order-detail.client"));
/** The refund, return and settlement forms of `/ops/orders/:id`. */
export const refundSchemas = schemasOnFirstUse("refund-schemas", () => import("./schemas/refunds.client"));
/** The code batch request form of `/ops/codes`. */
export const codeBatchSchemas = schemasOnFirstUse("code-batch-schemas", () => import("./schemas/code-batches.client"));
/** The transfer's form (`/transfer`). */
export const transferSchemas = schemasOnFirstUse("transfer-schemas", () => import("./schemas/transfer.client"));
/** The task board's forms (`/task`) and the review queue's (`/check`). */
export const taskSchemas = schemasOnFirstUse("task-schemas", () => import("./schemas/tasks.client"));
/** The account's sections (`/account`): profile, password, sessions, recovery codes, passkeys. */
export const accountSchemas = schemasOnFirstUse("account-schemas", () => import("./schemas/account.client"));
/** The top-up forms (`/recharge`, `/code`). */
export const rechargeSchemas = schemasOnFirstUse("recharge-schemas", () => import("./schemas/recharge.client"));
/** The support desk's forms (`/support`). */
export const supportSchemas = schemasOnFirstUse("support-schemas", () => import("./schemas/support.client"));
