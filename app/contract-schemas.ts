/**
 * The contract's schemas for code that a page's first visit loads: a route's own form, or an
 * API call a route makes. Such code cannot import a schema statically, or zod and the schema
 * would come with every first visit to the route (test/client-build holds this). It takes
 * them from a group fetched on first use instead: a `.client` module under app/schemas/,
 * which the edge's server build leaves out, so the edge bundles no zod
 * (docs/decisions/034-lighter-edge.md). Code that is itself fetched on first use — a screen's
 * part, what a submit runs — imports its schemas statically and brings them with it
 * (docs/decisions/067-form-rules-with-their-form.md).
 */
import { ApiFailure } from "./api/client";
import { type Part, partOnFirstUse } from "./startup/on-first-use";

export type SchemaGroup<M> = {
  /** The group; when it cannot be fetched, the network is what failed, as for a call. */
  load(): Promise<M>;
  /** For usePrefetchWhenIdle: a form drawn at once has its rules before anyone submits. */
  part: Part<M>;
};

function schemasOnFirstUse<M>(name: string, importGroup: () => Promise<M>): SchemaGroup<M> {
  // A fetch that failed is not remembered: the next use tries again. The page is not
  // reloaded for it, as it would be for a screen's part: what was typed stays.
  const part = partOnFirstUse(name, importGroup);
  return {
    part,
    async load() {
      const loaded = await part.prefetch();
      if (!loaded) throw new ApiFailure("ORIGIN_UNAVAILABLE");
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
