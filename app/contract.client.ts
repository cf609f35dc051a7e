/**
 * The contract's schemas that the browser checks with: forms before they are sent, and a few
 * answers. A `.client` module: React Router's server build gets `undefined` for each of them,
 * so the edge worker bundles no zod and builds no schema when it starts
 * (docs/decisions/034-lighter-edge.md). In the browser it is a chunk of its own, fetched on
 * first use: import it only through app/contract-schemas.ts, never statically, or every page
 * that imports it loads zod with its first visit (docs/decisions/036-form-rules-on-demand.md).
 * What the server renders, and what reads a page's URL, takes plain values from
 * #contract/value-lists.
 */
export { passwordSignInAnswerSchema, registerBodySchema, signInBodySchema } from "#contract/account";
export {
  newRecoveryCodesBodySchema,
  passkeyOptionsBodySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  recoverWithCodeBodySchema,
  recoverWithLinkBodySchema,
  sessionIdParamSchema,
} from "#contract/account-safety";
export { redeemCodeBodySchema } from "#contract/codes";
export { issueCodeBatchBodySchema } from "#contract/ops-codes";
export { paidTwiceSettleBodySchema, refundBodySchema, refundReturnBodySchema } from "#contract/ops-refunds";
export { createRechargeOrderBodySchema, orderDetailSchema } from "#contract/orders";
export { renamePasskeyBodySchema } from "#contract/passkey-name";
export { contactBodySchema, openTicketBodySchema, replyBodySchema } from "#contract/support";
export { postTaskBodySchema, rejectBodySchema, submitProofBodySchema } from "#contract/tasks";
export { transferBodySchema } from "#contract/transfers";
