import { defineMessages } from "../i18n/messages";

/**
 * What a ticket is made of, as /contact, /support and the back office name it: its topics, and
 * the words of the form that opens one.
 */
export const ticketMessages = defineMessages({
  en: {
    category: "Topic",
    categories: {
      payment: "A payment",
      order: "An order",
      transfer: "A transfer",
      task: "A task",
      account: "My account",
      other: "Something else",
    },
    subject: "Subject",
    subjectHint: "Up to 120 characters.",
    message: "Message",
    messageHint: (max: string) => `Up to ${max} characters. Never send your password.`,
    open: "Send to support",
    opening: "Sending…",
  },
  "zh-CN": {
    category: "问题类型",
    categories: { payment: "支付", order: "订单", transfer: "转账", task: "任务", account: "账户", other: "其他" },
    subject: "主题",
    subjectHint: "最多 120 个字符。",
    message: "内容",
    messageHint: (max: string) => `最多 ${max} 个字符。请勿发送密码。`,
    open: "提交给客服",
    opening: "正在提交…",
  },
});
