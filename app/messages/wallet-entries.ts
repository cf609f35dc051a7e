import { defineMessages } from "../i18n/messages";

/** A wallet entry's name in a short list (the home page's recent entries, the back office's view of a person). */
export const walletEntryMessages = defineMessages({
  en: {
    kind: {
      code_redeem: "Prepaid code",
      transfer_in: "Received from",
      transfer_out: "Sent to",
      recharge: "Recharge",
      task_budget: "Task budget held:",
      escrow_refund: "Task budget returned:",
      task_reward: "Task reward:",
      task_reward_paid: "Reward paid from escrow:",
      refund: "Refund",
    } as Record<string, string>,
    other: "Wallet entry",
  },
  "zh-CN": {
    kind: {
      code_redeem: "充值码",
      transfer_in: "收到转账：",
      transfer_out: "转账给：",
      recharge: "充值",
      task_budget: "任务预算托管：",
      escrow_refund: "任务预算退回：",
      task_reward: "任务报酬：",
      task_reward_paid: "从托管中支付报酬：",
      refund: "退款",
    } as Record<string, string>,
    other: "钱包记录",
  },
});
