/** The terms of service shown on /tos, in Simplified Chinese. The effective date is termsEffectiveDate in ./terms.server. */
import type { PageFigures } from "./figures.server";
export const termsSections = (figures: PageFigures): { id: string; title: string; paragraphs: string[] }[] => [
  {
    id: "service",
    title: "1. 服务",
    paragraphs: [
      "Paydesk 让你可以持有以人民币（CNY）计价的钱包余额，为钱包充值、支付订单、向其他用户转账、发布有偿任务，并通过完成任务获得报酬。本条款是你与“联系我们”页面所列运营方之间的协议。",
    ],
  },
  {
    id: "account",
    title: "2. 账户",
    paragraphs: [
      "你须提供用户名和密码，并对密码保密；如你认为他人使用了你的账户，请立即告知我们。在你告知我们之前，你须对通过你的账户进行的一切操作负责。",
      "每人只能持有一个账户。如账户被用于欺诈、洗钱，或用于违反本条款或法律法规，我们可以暂停该账户，并会告知你原因，法律禁止告知的情形除外。",
    ],
  },
  {
    id: "wallet",
    title: "3. 钱包",
    paragraphs: [
      "你的余额等于你充值或收到的资金，减去你支付或转出的资金。余额不会低于零，不计利息，也不属于银行存款。",
      "每一笔资金变动都会记录为一条明细，且不会被修改或删除；如有差错，我们会通过一条新的明细进行更正，你可以在自己的记录中看到。",
    ],
  },
  {
    id: "topping-up",
    title: "4. 充值",
    paragraphs: [
      `你可以通过微信支付充值，每笔订单 ${figures.recharge.min} 至 ${figures.recharge.max}；也可以在有效期内兑换充值码，获得其标明的面值。每个充值码仅可使用一次。资金在支付服务商确认付款后到账。`,
      "如某笔付款成功时对应订单已关闭或已支付，我们会将该款项退回至原付款账户。",
    ],
  },
  {
    id: "transfers",
    title: "5. 转账",
    paragraphs: [
      `转账会将资金从你的钱包即时转入另一位用户的钱包，并受“帮助”页面所示限额约束（每笔 ${figures.transfer.min} 至 ${figures.transfer.max}，每日最多 ${figures.transfer.perDay}）。确认前请核对收款人的名字：转账一经完成，只能由收款人退回。`,
    ],
  },
  {
    id: "tasks",
    title: "6. 有偿任务",
    paragraphs: [
      `你发布任务时须支付任务预算，预算将被托管，直至每次完成被审核通过或驳回，或任务结束。你须公正地审核提交的成果，驳回时须说明理由。${figures.times.autoApprove}内未审核的提交将自动通过。`,
      "你完成任务时，须保证所提交的凭证是你本人真实完成的成果。完成任务不会产生任何费用。任务内容须合法，不得要求任何人提供密码、支付信息或个人数据。",
    ],
  },
  {
    id: "fees",
    title: "7. 费用",
    paragraphs: ["Paydesk 不对充值、转账或任务收取任何费用。如有变更，我们会至少提前 30 天通知你。"],
  },
  {
    id: "privacy",
    title: "8. 你的数据",
    paragraphs: [
      "我们会保留运营你的钱包和履行法定义务所需的数据，例如支付记录。为修复问题而收集的错误报告会隐去你输入的内容和屏幕上显示的金额。",
    ],
  },
  {
    id: "liability",
    title: "9. 出现问题时",
    paragraphs: [
      "如因我们的过错导致资金丢失，我们会予以补回。对于超出我们合理控制范围的事件所造成的损失，或在你告知我们密码已泄露之前他人使用你的密码所造成的损失，我们不承担责任。",
    ],
  },
  {
    id: "changes",
    title: "10. 条款变更与终止",
    paragraphs: [
      "我们可以修改本条款，并会提前 30 天通知你；如你不同意，可以注销账户，并在法律允许的范围内提取余额。你可以随时停止使用 Paydesk。",
      "如有疑问或投诉，请联系客服，或通过“联系我们”页面上的联系方式与我们联系；我们会在 5 个工作日内答复。",
    ],
  },
];
