import { defineMessages } from "../i18n/messages";
import type { Language } from "../i18n/languages";

/**
 * What a ticket's form says of a field the contract refuses: checked on a submit, by the code a
 * submit fetches (app/support/), so apart from the pages' catalogues. A message's length is the
 * deploy's (app/text-limits.ts): `ticketFields` fills it in.
 */
export const ticketFieldMessages = defineMessages({
  en: {
    category: "Choose a topic.",
    subject: "Give your message a subject of up to 120 characters.",
    messageOutside: (max: string) => `Write your message in up to ${max} characters.`,
    orderId: "An order number starts with ord_; copy it from the order's page, or leave it empty.",
    email: "Enter an email address we can answer.",
  },
  "zh-CN": {
    category: "请选择问题类型。",
    subject: "请填写主题，最多 120 个字符。",
    messageOutside: (max: string) => `请填写内容，最多 ${max} 个字符。`,
    orderId: "订单号以 ord_ 开头，可从订单页面复制，也可留空。",
    email: "请输入我们可以回复的邮箱地址。",
  },
});

/** The form's words for each field, in `language`, with the deploy's longest message. */
export function ticketFields(language: Language, messageLength: string): Record<string, string> {
  const { messageOutside, ...fields } = ticketFieldMessages[language];
  return { ...fields, message: messageOutside(messageLength) };
}
