import { defineMessages } from "../i18n/messages";

/** The task board's page, title and tabs (/task): what its first visit shows. Its lists' words are in tasks.ts. */
export const taskBoardMessages = defineMessages({
  en: {
    title: "Tasks",
    pageDescription: "Find paid tasks, take one and earn its reward, or post a task with its budget held safely.",
    purpose: "Sign in to claim tasks, submit your work and post tasks of your own.",
    tabs: { available: "Available", mine: "My work", posted: "Posted" },
    tabsLabel: "Task lists",
  },
  "zh-CN": {
    title: "任务",
    pageDescription: "查找有偿任务并领取赚取报酬，或发布任务，预算由平台托管。",
    purpose: "登录后即可领取任务、提交成果并发布自己的任务。",
    tabs: { available: "可领取", mine: "我领取的", posted: "我发布的" },
    tabsLabel: "任务列表",
  },
});
