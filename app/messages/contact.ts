import { defineMessages } from "../i18n/messages";

/** /contact: how to reach Paydesk, and its form for anyone, with or without an account. */
export const contactMessages = defineMessages({
  en: {
    contactTitle: "Contact us",
    contactDescription: "Write to Paydesk's support team, with or without an account.",
    contactLead:
      "For questions about an order or a payment, a support ticket reaches us fastest: it keeps the whole conversation in one place.",
    email: "Email",
    phone: "Phone",
    hours: "Hours",
    address: "Address",
    formTitle: "Write to us",
    yourEmail: "Your email address",
    yourEmailHint: "We answer to this address.",
    contactSent: (id: string) => `Thank you. We received your message (reference ${id}) and will answer by email.`,
  },
  "zh-CN": {
    contactTitle: "联系我们",
    contactDescription: "无论是否有账户，都可以给 Paydesk 客服团队留言。",
    contactLead: "关于订单或支付的问题，提交客服工单最快：整个对话都会保存在一处。",
    email: "邮箱",
    phone: "电话",
    hours: "服务时间",
    address: "地址",
    formTitle: "给我们留言",
    yourEmail: "你的邮箱",
    yourEmailHint: "我们会回复到这个地址。",
    contactSent: (id: string) => `谢谢。我们已收到你的留言（编号 ${id}），将通过邮件回复。`,
  },
});
