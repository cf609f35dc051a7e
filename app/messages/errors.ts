import type { ErrorCode } from "#contract/error-codes";
import { defineMessages } from "../i18n/messages";
import type { Language } from "../i18n/languages";

/** What the user reads for each error code of the contract (docs/api-contract.md: one catalogue). */
export const errorMessages = defineMessages<Record<ErrorCode, string>>({
  en: {
    BAD_REQUEST: "Please check what you entered.",
    REQUEST_TIMEOUT: "Your request did not arrive in full. Please try again.",
    METHOD_NOT_ALLOWED: "That action is not available here.",
    PAYLOAD_TOO_LARGE: "What you sent is too long. Please shorten it and try again.",
    UNSUPPORTED_MEDIA_TYPE: "Paydesk could not read that request. Please reload the page and try again.",
    UNAUTHENTICATED: "Please sign in again.",
    INVALID_CREDENTIALS: "That handle and password do not match an account.",
    NOT_FOUND: "We could not find that.",
    FORBIDDEN: "You are not allowed to do that.",
    EDGE_REQUIRED: "Paydesk is not reachable right now. Please try again later.",
    HANDLE_TAKEN: "That handle is taken. Choose another.",
    LAST_ADMIN: "Paydesk needs at least one admin: grant the role to someone else first.",
    CODE_ALREADY_USED: "This code has already been used.",
    CODE_NOT_VALID: "That is not a valid code. Check each character and try again.",
    CODE_EXPIRED: "This code has expired.",
    CODE_VOIDED: "This code has been withdrawn and can no longer be used. Ask whoever gave it to you for another.",
    CODES_ALREADY_SHOWN: "These codes were shown once and are never shown again. If you lost them, void the batch and issue a new one.",
    CODE_BATCH_VOIDED: "This batch of codes has already been voided.",
    CODE_BATCH_SPENT: "Every code of this batch has been redeemed: there is nothing left to void.",
    INSUFFICIENT_FUNDS: "Your available balance is not enough for this.",
    TRANSFER_TO_SELF: "You cannot send money to yourself.",
    DAILY_LIMIT_EXCEEDED: "This would take you over the daily limit of ¥100,000.00 sent.",
    RECIPIENT_NOT_FOUND: "No Paydesk user has that handle.",
    ORDER_NOT_PENDING: "This order is already paid or closed.",
    WALLET_NOT_ALLOWED: "A recharge is paid online, not from the wallet.",
    DEADLINE_OUT_OF_RANGE: "Choose a deadline between 1 hour and 30 days from now.",
    TASK_NOT_CLAIMABLE: "This task cannot be claimed: it is full, closed, past its deadline or your own.",
    ALREADY_CLAIMED: "You have already claimed this task.",
    CLAIM_EXPIRED: "The time to submit this claim has run out.",
    CLAIM_NOT_SUBMITTED: "This claim is not waiting for a check.",
    TASK_NOT_CANCELLABLE: "This task has already closed.",
    TICKET_CLOSED: "This ticket is closed. Open a new one if you still need help.",
    TICKET_CHANGED: "Someone else changed this ticket just now. Reload it and try again.",
    IDEMPOTENCY_KEY_REUSED: "This form was already sent with other details. Reload the page and try again.",
    IDEMPOTENCY_KEY_IN_USE: "This request is still being processed. Please wait a moment.",
    SIGN_IN_LOCKED: "Too many failed sign-ins. Please wait 15 minutes and try again.",
    REDEEM_LOCKED: "Too many wrong codes. Please wait 10 minutes and try again.",
    RATE_LIMITED: "Too many messages were sent from here. Please wait a while and try again.",
    WECHAT_PAY_NOT_CONFIGURED: "WeChat Pay is not available on this Paydesk. Choose another way to pay.",
    WECHAT_PAY_FLOW_NOT_AVAILABLE: "This way of paying with WeChat Pay is not available here. Try another.",
    WECHAT_PAY_REFUSED: "WeChat Pay could not start this payment. Please try again later or choose another way to pay.",
    WECHAT_PAY_UNAVAILABLE: "WeChat Pay did not answer in time. Please try again.",
    INTERNAL_ERROR: "Something went wrong on our side. Please try again.",
    ORIGIN_UNAVAILABLE: "Paydesk cannot reach its service right now. Please try again in a moment.",
    ORIGIN_TIMEOUT: "The service took too long to answer. Please try again.",
  },
  "zh-CN": {
    BAD_REQUEST: "请检查你填写的内容。",
    REQUEST_TIMEOUT: "请求未完整送达，请重试。",
    METHOD_NOT_ALLOWED: "此处不支持该操作。",
    PAYLOAD_TOO_LARGE: "提交的内容过长，请删减后重试。",
    UNSUPPORTED_MEDIA_TYPE: "无法读取该请求，请刷新页面后重试。",
    UNAUTHENTICATED: "请重新登录。",
    INVALID_CREDENTIALS: "用户名和密码不匹配。",
    NOT_FOUND: "找不到该内容。",
    FORBIDDEN: "你无权执行此操作。",
    EDGE_REQUIRED: "Paydesk 暂时无法访问，请稍后再试。",
    HANDLE_TAKEN: "该用户名已被占用，请换一个。",
    LAST_ADMIN: "Paydesk 至少需要一名管理员：请先将该角色授予他人。",
    CODE_ALREADY_USED: "此充值码已被使用。",
    CODE_NOT_VALID: "充值码无效，请逐个字符检查后重试。",
    CODE_EXPIRED: "此充值码已过期。",
    CODE_VOIDED: "此充值码已被作废，无法再使用。请向提供者索取新的充值码。",
    CODES_ALREADY_SHOWN: "这批充值码只显示一次，不会再次显示。如已丢失，请作废该批次并重新发放。",
    CODE_BATCH_VOIDED: "这批充值码已被作废。",
    CODE_BATCH_SPENT: "这批充值码已全部兑换，没有可作废的充值码。",
    INSUFFICIENT_FUNDS: "你的可用余额不足。",
    TRANSFER_TO_SELF: "不能给自己转账。",
    DAILY_LIMIT_EXCEEDED: "超出每日转账限额 ¥100,000.00。",
    RECIPIENT_NOT_FOUND: "没有使用该用户名的 Paydesk 用户。",
    ORDER_NOT_PENDING: "此订单已支付或已关闭。",
    WALLET_NOT_ALLOWED: "充值订单需在线支付，不能用余额支付。",
    DEADLINE_OUT_OF_RANGE: "截止时间须在 1 小时到 30 天之后。",
    TASK_NOT_CLAIMABLE: "无法领取此任务：名额已满、已关闭、已过截止时间，或是你自己发布的任务。",
    ALREADY_CLAIMED: "你已领取过此任务。",
    CLAIM_EXPIRED: "此任务的提交时限已过。",
    CLAIM_NOT_SUBMITTED: "该提交已处理或不在待审核状态。",
    TASK_NOT_CANCELLABLE: "此任务已关闭。",
    TICKET_CLOSED: "此工单已关闭。如仍需帮助，请新建工单。",
    TICKET_CHANGED: "此工单刚刚被他人修改，请刷新后重试。",
    IDEMPOTENCY_KEY_REUSED: "此表单已用其他内容提交过。请刷新页面后重试。",
    IDEMPOTENCY_KEY_IN_USE: "此请求仍在处理中，请稍候。",
    SIGN_IN_LOCKED: "登录失败次数过多，请 15 分钟后再试。",
    REDEEM_LOCKED: "错误的充值码次数过多，请 10 分钟后再试。",
    RATE_LIMITED: "操作过于频繁，请稍后再试。",
    WECHAT_PAY_NOT_CONFIGURED: "此 Paydesk 暂不支持微信支付，请选择其他支付方式。",
    WECHAT_PAY_FLOW_NOT_AVAILABLE: "此处不支持这种微信支付方式，请换一种。",
    WECHAT_PAY_REFUSED: "微信支付未能发起此笔支付，请稍后重试或选择其他支付方式。",
    WECHAT_PAY_UNAVAILABLE: "微信支付未及时响应，请重试。",
    INTERNAL_ERROR: "系统繁忙，请稍后重试。",
    ORIGIN_UNAVAILABLE: "Paydesk 暂时无法连接服务，请稍后再试。",
    ORIGIN_TIMEOUT: "服务响应超时，请重试。",
  },
});

/**
 * The message for an answer's code. A field-level message from the origin is specific and
 * safe to show, but it is English; other languages get the catalogue's.
 */
export function messageFor(code: ErrorCode, language: Language, originMessage?: string, field?: string): string {
  if (language === "en" && code === "BAD_REQUEST" && field && originMessage) return originMessage;
  return errorMessages[language][code];
}

const retryableCodes = new Set<ErrorCode>([
  "REQUEST_TIMEOUT",
  "ORIGIN_UNAVAILABLE",
  "ORIGIN_TIMEOUT",
  "INTERNAL_ERROR",
  "IDEMPOTENCY_KEY_IN_USE",
  "WECHAT_PAY_UNAVAILABLE",
]);

/** A refusal that will not change if the same request is sent again: the form needs a new key. */
export function isDefiniteRefusal(code: ErrorCode): boolean {
  return !retryableCodes.has(code);
}
