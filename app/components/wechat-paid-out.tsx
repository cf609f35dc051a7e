import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { wechatPaidOutMessages } from "../messages/wechat-paid-out";

/**
 * Where a refund's money went when WeChat Pay paid back another amount than asked: the rest to
 * the wallet, or the difference Paydesk covered (docs/decisions/070-parked-refunds-settled.md).
 * Text only: the order page and the receipt place it.
 */
export function WechatPaidOut({ amount, paidOut }: { amount: number; paidOut: number }) {
  const text = useMessages(wechatPaidOutMessages);
  const language = useLanguage();
  const money = (fen: number) => formatMoney(fen, language);
  return paidOut < amount ? text.less(money(paidOut), money(amount - paidOut)) : text.more(money(paidOut), money(paidOut - amount));
}
