import { defineMessages } from "../i18n/messages";

/** The review queue's page (/check): its title, what it is for, its rule. Its words for each submission are in tasks.ts. */
export const checkPageMessages = defineMessages({
  en: {
    checkTitle: "Check submissions",
    checkDescription: "Review the work submitted for your tasks and approve it to pay the reward.",
    checkPurpose: "Sign in to check the work submitted for your tasks.",
    autoApprove: (hours: number) => `Submissions not checked within ${hours} hours are approved automatically.`,
    autoApproveEach: "Submissions not checked in time are approved automatically, at the time each one shows.",
  },
  "zh-CN": {
    checkTitle: "审核提交",
    checkDescription: "审核他人为你的任务提交的成果，通过后支付报酬。",
    checkPurpose: "登录后审核别人为你的任务提交的成果。",
    autoApprove: (hours: number) => `${hours} 小时内未审核的提交将自动通过。`,
    autoApproveEach: "未按时审核的提交将自动通过，时间见每条提交。",
  },
});
