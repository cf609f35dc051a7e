/** One "Ask WeChat Pay now" per order in this many seconds: WeChat Pay limits how often a merchant may query. */
export const askIntervalSeconds = 10;
