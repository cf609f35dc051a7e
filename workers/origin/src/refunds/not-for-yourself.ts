/**
 * No operator moves money on their own order: another finance operator does
 * (docs/decisions/065-no-refund-of-ones-own-order.md). The routes refuse it before anything
 * is written; the triggers of migration 0043 refuse it in the database as well.
 */
import { ApiError } from "../http/answer";

export const notForYourself = () =>
  new ApiError("NOT_FOR_YOURSELF", "Another finance operator must do this for a refund on your own order.");

/** Whether a batch failed on one of migration 0043's triggers. */
export const isOwnOrderRefusal = (error: unknown) =>
  error instanceof Error && error.message.includes("refund: not for the operator's own order");
