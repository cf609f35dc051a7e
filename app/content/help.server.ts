/** The questions and answers of /help. Money limits, locks and time limits are the deploy's (app/content/figures.server.ts); the rest match docs/rules-and-limits.md. */
import type { PageFigures } from "./figures.server";
export type Answer = { id: string; question: string; answer: string[] };

export const helpTopics = (figures: PageFigures): { title: string; answers: Answer[] }[] => [
  {
    title: "Your wallet",
    answers: [
      {
        id: "balance",
        question: "What is the difference between available and held money?",
        answer: [
          "Available money is yours to spend, send or pay orders with.",
          "Held money is set aside for something in progress, such as the budget of a task you posted. It is released to the people who complete your task, or back to your available balance when the task ends or you cancel it.",
        ],
      },
      {
        id: "negative",
        question: "Can my balance go below zero?",
        answer: ["No. A payment or transfer that your available balance does not cover is refused, and nothing is taken."],
      },
      {
        id: "history",
        question: "Where do I see what happened to my money?",
        answer: [
          "Your home page lists your last wallet entries, and Orders shows every order with its status history and payments. Entries are never changed or deleted: a mistake is corrected by a new entry you can see.",
        ],
      },
    ],
  },
  {
    title: "Topping up",
    answers: [
      {
        id: "recharge",
        question: "How do I add money?",
        answer: [
          `Open Recharge. Either redeem a prepaid code, or choose an amount between ${figures.recharge.min} and ${figures.recharge.max} and pay it with WeChat Pay. The money is in your wallet as soon as the payment is confirmed.`,
        ],
      },
      {
        id: "codes",
        question: "How do prepaid codes work?",
        answer: [
          "A code has 16 letters and digits in four groups, like ABCD-EFGH-JKMN-PQRS. Upper or lower case both work. Each code can be used once, before its expiry date, and adds its value to your wallet.",
          `After ${figures.locks.redeem.failures} wrong codes within ${figures.locks.redeem.window}, redeeming is paused for ${figures.locks.redeem.lock} to protect codes from guessing.`,
        ],
      },
      {
        id: "pending",
        question: "I paid with WeChat Pay but my balance did not change.",
        answer: [
          "Confirmation from WeChat Pay can take a minute. The payment page keeps checking, and we also ask WeChat Pay ourselves if no confirmation arrives. If a payment arrives for an order that was already closed or paid, it is refunded to you automatically.",
        ],
      },
    ],
  },
  {
    title: "Orders and payments",
    answers: [
      {
        id: "order-expiry",
        question: "How long do I have to pay an order?",
        answer: [`${figures.times.orderPay}. An unpaid order closes after that, and you can cancel it yourself before then.`],
      },
      {
        id: "wallet-pay",
        question: "Can I pay a recharge order from my wallet?",
        answer: ["No: a recharge adds money to the wallet, so it is paid online. Task budgets can be paid from the wallet or online."],
      },
    ],
  },
  {
    title: "Sending money",
    answers: [
      {
        id: "transfer-limits",
        question: "How much can I send?",
        answer: [
          `From ${figures.transfer.min} to ${figures.transfer.max} per transfer, and up to ${figures.transfer.perDay} in total per day. You confirm the recipient's name before anything is sent, and a note of up to ${figures.noteLength} characters travels with the money.`,
        ],
      },
      {
        id: "transfer-undo",
        question: "I sent money to the wrong person.",
        answer: [
          "A transfer cannot be taken back by us on our own. Ask the recipient to send it back, and open a support ticket with the details if that does not work.",
        ],
      },
    ],
  },
  {
    title: "Tasks",
    answers: [
      {
        id: "post-task",
        question: "How do I post a paid task?",
        answer: [
          `Under Tasks → Posted, describe the task, set a reward between ${figures.taskReward.min} and ${figures.taskReward.max} per completion, the number of completions (1 to ${figures.tasks.slotsMax}) and a deadline between ${figures.tasks.soonest} and ${figures.tasks.latest} ahead. You pay the budget (reward × completions) once; it is held for the task and the task opens.`,
        ],
      },
      {
        id: "do-task",
        question: "How do I earn by doing tasks?",
        answer: [
          `Under Tasks → Available, claim a task and submit your proof within ${figures.times.claimSubmit} (or by the deadline, if sooner). Doing tasks never costs you anything. When the poster approves, the reward moves to your wallet; unchecked submissions are approved automatically after ${figures.times.autoApprove}.`,
        ],
      },
      {
        id: "unused-budget",
        question: "What happens to budget nobody used?",
        answer: ["At the deadline, or when you cancel the task, the budget for completions no longer needed returns to your wallet."],
      },
    ],
  },
  {
    title: "Your account",
    answers: [
      {
        id: "password",
        question: "What makes a valid handle and password?",
        answer: [
          `A handle has 3 to 32 lower-case letters, digits or underscores. A password has at least 10 characters. After ${figures.locks.signIn.failures} failed sign-ins within ${figures.locks.signIn.window}, signing in to that handle is paused for ${figures.locks.signIn.lock}.`,
        ],
      },
      {
        id: "sign-out",
        question: "How long do I stay signed in?",
        answer: [`Until you sign out, or ${figures.times.sessionIdle} after you last used Paydesk on that device.`],
      },
    ],
  },
];
