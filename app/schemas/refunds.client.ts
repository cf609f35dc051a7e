// A group of schemas fetched on first use (app/contract-schemas.ts): import it from there only.
export { paidTwiceSettleBodySchema, parkedRefundSettleBodySchema, refundBodySchema, refundReturnBodySchema } from "#contract/ops-refunds";
