/** The terms of service shown on /tos. */
import type { PageFigures } from "./figures.server";
export const termsEffectiveDate = "2026-11-21";

export const termsSections = (figures: PageFigures): { id: string; title: string; paragraphs: string[] }[] => [
  {
    id: "service",
    title: "1. The service",
    paragraphs: [
      "Paydesk lets you keep a wallet balance in Chinese yuan (CNY), top it up, pay orders, send money to other users, post paid tasks and earn rewards for completing them. These terms are an agreement between you and the operator named on the Contact page.",
    ],
  },
  {
    id: "account",
    title: "2. Your account",
    paragraphs: [
      "You must give a handle and a password, keep your password secret and tell us at once if you think someone else used your account. You are responsible for what is done with your account until you tell us.",
      "One person may hold one account. We may suspend an account used for fraud, money laundering, or to break these terms or the law, and will tell you why unless the law forbids it.",
    ],
  },
  {
    id: "wallet",
    title: "3. Your wallet",
    paragraphs: [
      "Your balance is the money you added or received, less what you paid or sent. It never goes below zero, earns no interest and is not a deposit with a bank.",
      "Every movement of money is recorded as an entry that is never changed or deleted; a mistake is corrected by a new entry that you can see in your history.",
    ],
  },
  {
    id: "topping-up",
    title: "4. Topping up",
    paragraphs: [
      `You can add between ${figures.recharge.min} and ${figures.recharge.max} per order with WeChat Pay, or redeem a prepaid code for its stated value before its expiry date. A code can be used once. Money arrives when the payment provider confirms the payment.`,
      "If a payment succeeds for an order that is already closed or paid, we refund it to the account it came from.",
    ],
  },
  {
    id: "transfers",
    title: "5. Sending money",
    paragraphs: [
      `A transfer moves money from your wallet to another user's at once, within the limits shown in Help (${figures.transfer.min} to ${figures.transfer.max} each and ${figures.transfer.perDay} per day). Check the recipient's name before you confirm: a completed transfer can only be returned by its recipient.`,
    ],
  },
  {
    id: "tasks",
    title: "6. Paid tasks",
    paragraphs: [
      `When you post a task you pay its budget, which is held until each completion is approved, rejected or the task ends. You must review submissions fairly and give a reason when you reject one. Submissions you have not checked within ${figures.times.autoApprove} are approved automatically.`,
      "When you do a task you promise that your proof is your own honest work. Doing tasks never costs you anything. Tasks must be lawful and must not ask anyone to share passwords, payment details or personal data.",
    ],
  },
  {
    id: "fees",
    title: "7. Fees",
    paragraphs: ["Paydesk charges no fee for topping up, transfers or tasks. If that changes we will tell you at least 30 days before."],
  },
  {
    id: "privacy",
    title: "8. Your data",
    paragraphs: [
      "We keep the data needed to run your wallet and to meet our legal duties, such as payment records. Error reports we collect to fix problems hide what you type and the amounts on screen.",
    ],
  },
  {
    id: "liability",
    title: "9. When things go wrong",
    paragraphs: [
      "If money goes missing through our error we put it back. We are not responsible for losses caused by events outside our reasonable control, or by someone using your password before you told us it was compromised.",
    ],
  },
  {
    id: "changes",
    title: "10. Changes and ending",
    paragraphs: [
      "We may change these terms with 30 days' notice; if you do not agree you may close your account and withdraw your balance as the law allows. You may stop using Paydesk at any time.",
      "Questions and complaints go to Support or the contact details on the Contact page; we answer within 5 working days.",
    ],
  },
];
