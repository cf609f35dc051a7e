import { defineMessages } from "../i18n/messages";

/**
 * What a ticket's form says of a field the contract refuses: checked on a submit, by the code a
 * submit fetches (app/support/), so apart from the pages' catalogues.
 */
export const ticketFieldMessages = defineMessages({
  en: {
    category: "Choose a topic.",
    subject: "Give your message a subject of up to 120 characters.",
    message: "Write your message in up to 4,000 characters.",
    orderId: "An order number starts with ord_; copy it from the order's page, or leave it empty.",
    email: "Enter an email address we can answer.",
  },
  "zh-CN": {
    category: "请选择问题类型。",
    subject: "请填写主题，最多 120 个字符。",
    message: "请填写内容，最多 4,000 个字符。",
    orderId: "订单号以 ord_ 开头，可从订单页面复制，也可留空。",
    email: "请输入我们可以回复的邮箱地址。",
  },
});
