// A group of schemas fetched on first use (app/contract-schemas.ts): import it from there only.
export { redeemCodeBodySchema } from "#contract/codes";
export { createRechargeOrderBodySchema } from "#contract/orders";
