/**
 * The contract's schemas that the browser checks with: forms before they are sent, the
 * parameters of a page's URL, and answers. A `.client` module: React Router's server build
 * gets `undefined` for each of them, so the edge worker bundles no zod and builds no schema
 * when it starts (docs/decisions/034-lighter-edge.md). Only code that runs in the
 * browser (client loaders and actions, event handlers, effects, screens of personal data)
 * may use them; what the server renders takes plain values from #contract/value-lists.
 */
export { registerBodySchema, signInAnswerSchema, signInBodySchema } from "#contract/account";
export {
  newRecoveryCodesBodySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  recoverWithCodeBodySchema,
  recoverWithLinkBodySchema,
  sessionIdParamSchema,
} from "#contract/account-safety";
export { redeemCodeBodySchema } from "#contract/codes";
export { issueCodeBatchBodySchema } from "#contract/ops-codes";
export { refundBodySchema } from "#contract/ops-refunds";
export { createRechargeOrderBodySchema, orderDetailSchema, orderIdSchema } from "#contract/orders";
export { renamePasskeyBodySchema } from "#contract/passkey-name";
export { wechatOpenidSchema } from "#contract/payments";
export { contactBodySchema, openTicketBodySchema, replyBodySchema, ticketIdSchema } from "#contract/support";
export { postTaskBodySchema, rejectBodySchema, submitProofBodySchema } from "#contract/tasks";
export { transferBodySchema } from "#contract/transfers";
