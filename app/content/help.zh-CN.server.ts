/** The questions and answers of /help in Simplified Chinese. Money limits, locks and time limits are the deploy's (app/content/figures.server.ts); the rest match docs/rules-and-limits.md. */
import type { PageFigures } from "./figures.server";
import type { Answer } from "./help.server";

export const helpTopics = (figures: PageFigures): { title: string; answers: Answer[] }[] => [
  {
    title: "钱包",
    answers: [
      {
        id: "balance",
        question: "可用资金和托管资金有什么区别？",
        answer: [
          "可用资金由你自由支配，可用于消费、转账或支付订单。",
          "托管资金是为进行中的事项预留的款项，例如你所发布任务的预算。这笔资金会发放给完成你任务的用户，或在任务结束、你取消任务时退回你的可用余额。",
        ],
      },
      {
        id: "negative",
        question: "余额会变成负数吗？",
        answer: ["不会。如果可用余额不足以支付某笔付款或转账，该笔交易会被拒绝，不会扣除任何款项。"],
      },
      {
        id: "history",
        question: "在哪里查看我的资金变动？",
        answer: [
          "首页会列出你最近的钱包明细；在“订单”中可以查看每笔订单的状态记录和支付记录。明细一经记录，不会被修改或删除：如有差错，会通过一条新的明细进行更正，你可以在记录中看到。",
        ],
      },
    ],
  },
  {
    title: "充值",
    answers: [
      {
        id: "recharge",
        question: "如何充值？",
        answer: [
          `打开“充值”页面。你可以兑换充值码，也可以输入 ${figures.recharge.min} 至 ${figures.recharge.max} 之间的金额，通过微信支付付款。支付确认后，资金会立即存入你的钱包。`,
        ],
      },
      {
        id: "codes",
        question: "充值码如何使用？",
        answer: [
          "充值码由 16 位字母和数字组成，分为四组，例如 ABCD-EFGH-JKMN-PQRS，不区分大小写。每个充值码仅可使用一次，须在有效期内兑换，兑换后其面值将存入你的钱包。",
          `为防止充值码被猜测，如果 ${figures.locks.redeem.window}内输错 ${figures.locks.redeem.failures} 次，兑换功能将暂停 ${figures.locks.redeem.lock}。`,
        ],
      },
      {
        id: "pending",
        question: "我已用微信支付付款，但余额没有变化。",
        answer: [
          "微信支付的确认可能需要一分钟左右。支付页面会持续查询结果；如果一直未收到确认，我们也会主动向微信支付查询。如果付款对应的订单已关闭或已支付，这笔款项会自动退还给你。",
        ],
      },
    ],
  },
  {
    title: "订单与支付",
    answers: [
      {
        id: "order-expiry",
        question: "订单的支付时限是多久？",
        answer: [`${figures.times.orderPay}。超时未支付的订单将自动关闭；在此之前，你也可以自行取消订单。`],
      },
      {
        id: "wallet-pay",
        question: "充值订单可以用钱包余额支付吗？",
        answer: ["不可以：充值是向钱包存入资金，因此需要在线支付。任务预算既可以用钱包余额支付，也可以在线支付。"],
      },
    ],
  },
  {
    title: "转账",
    answers: [
      {
        id: "transfer-limits",
        question: "转账限额是多少？",
        answer: [
          `每笔 ${figures.transfer.min} 至 ${figures.transfer.max}，每日累计最多 ${figures.transfer.perDay}。转出前，你需要先核对收款人的名字；你还可以添加最多 ${figures.noteLength} 个字符的备注，备注会随款项一起发送给收款人。`,
        ],
      },
      {
        id: "transfer-undo",
        question: "我转错人了，怎么办？",
        answer: ["我们无法自行撤回已完成的转账。请联系收款人将款项转回；如果仍无法解决，请提交客服工单并附上详细信息。"],
      },
    ],
  },
  {
    title: "任务",
    answers: [
      {
        id: "post-task",
        question: "如何发布有偿任务？",
        answer: [
          `在“任务 → 我发布的”中描述任务内容，设置每次完成的报酬（${figures.taskReward.min} 至 ${figures.taskReward.max}）、需要完成的次数（1 至 ${figures.tasks.slotsMax}）以及截止时间（从现在起 ${figures.tasks.soonest}到 ${figures.tasks.latest}之间）。你只需一次性支付预算（报酬 × 次数），预算将为该任务托管，任务随即开放。`,
        ],
      },
      {
        id: "do-task",
        question: "如何通过完成任务赚取报酬？",
        answer: [
          `在“任务 → 可领取”中领取任务，并在 ${figures.times.claimSubmit}内（如截止时间更早，则在截止时间前）提交完成凭证。完成任务不会产生任何费用。发布者审核通过后，报酬会转入你的钱包；${figures.times.autoApprove}内未审核的提交将自动通过。`,
        ],
      },
      {
        id: "unused-budget",
        question: "没有用完的预算会怎样处理？",
        answer: ["到达截止时间或你取消任务时，不再需要的完成次数所对应的预算会退回你的钱包。"],
      },
    ],
  },
  {
    title: "账户",
    answers: [
      {
        id: "password",
        question: "用户名和密码有什么要求？",
        answer: [
          `用户名为 3 到 32 个小写字母、数字或下划线；密码至少 10 个字符。如果某个用户名在 ${figures.locks.signIn.window}内登录失败达 ${figures.locks.signIn.failures} 次，该用户名的登录将暂停 ${figures.locks.signIn.lock}。`,
        ],
      },
      {
        id: "sign-out",
        question: "登录状态会保持多久？",
        answer: [`直到你退出登录为止；如果你在该设备上连续 ${figures.times.sessionIdle}未使用 Paydesk，登录状态也会失效。`],
      },
    ],
  },
];
