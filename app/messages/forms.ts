import { defineMessages } from "../i18n/messages";

/** What any form may be told, whatever its screen. */
export const formMessages = defineMessages({
  en: {
    unknownIntent: "This page cannot do what the form asked. Please reload the page and try again.",
    amountOutside: (min: string, max: string) => `Enter an amount from ${min} to ${max}, with at most two decimals.`,
  },
  "zh-CN": {
    unknownIntent: "此页面无法处理该表单的请求。请刷新页面后重试。",
    amountOutside: (min: string, max: string) => `请输入 ${min} 至 ${max} 之间的金额，最多两位小数。`,
  },
});
