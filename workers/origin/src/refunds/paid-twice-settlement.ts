/**
 * The settlement of a refund paid twice (docs/decisions/060-refunds-paid-twice.md) as written,
 * whether a finance operator settles it alone or a second operator approves what another asked
 * for (docs/decisions/072-large-settlements-need-a-second-operator.md): its statements after the
 * audit row, what the database's refusals of them mean, and what the operator hears.
 */
import type { SettlementRequest } from "#contract/ops-orders";
import type { PaidTwiceSettleBody } from "#contract/ops-refunds";
import { isLockRefusal } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { isOwnOrderRefusal, notForYourself } from "./not-for-yourself";
import { isOverdraft, journalParts, paydeskCoveredAccount, walletAccountOf, worldAccount } from "../ledger/journal";
import type { WechatRefundRow } from "./wechat-refund-rows";

/**
 * What WeChat Pay paid out, which the settlement books: the refund's amount, or for a parked
 * refund what WeChat Pay reported (docs/decisions/070-parked-refunds-settled.md).
 */
export const paidOutOf = (refund: WechatRefundRow) => refund.late_success_amount ?? refund.amount;

type Settlement = {
  how: PaidTwiceSettleBody["how"];
  reason: string;
  /** Who chose the way and gave the reason: for one that waited, whoever asked. */
  settledBy: string;
  /** The approved request it settles, for one that waited. */
  request: Pick<SettlementRequest, "id" | "amount"> | null;
  now: number;
};

/**
 * The settlement's statements, to follow its audit row in one batch: WeChat Pay's payout leaves
 * the books as a refund does (to the world), from the wallet the money was returned to or from
 * Paydesk's own money; paid to Paydesk's own account, it never left, and nothing is booked.
 */
export function settlementStatements(db: D1Database, refund: WechatRefundRow, settlement: Settlement): D1PreparedStatement[] {
  const { how, reason, settledBy, request, now } = settlement;
  const paidOut = request?.amount ?? paidOutOf(refund);
  const txId = how === "to_paydesk" ? null : `tx_${crypto.randomUUID()}`;
  const booking =
    txId === null
      ? null
      : journalParts(db, {
          id: txId,
          kind: "refund",
          at: now,
          postings: [
            { account: how === "take_back" ? walletAccountOf(refund.person_id) : paydeskCoveredAccount, amount: -paidOut },
            { account: worldAccount, amount: paidOut },
          ],
        });
  return [
    ...(booking ? [booking.opening] : []),
    // Before the entries: of two settlements at once, the second is refused here (the primary
    // key), not by the wallet's balance; its triggers refuse a refund not paid twice, a take
    // back from a locked account, a settlement while one waits for a second operator, and one
    // that is not what its approved request asked for (migrations 0038, 0048).
    db
      .prepare(
        `INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at, request_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
      )
      .bind(refund.out_refund_no, how, txId, reason, settledBy, now, request?.id ?? null),
    ...(booking ? booking.entries : []),
  ];
}

export const notPaidTwice = () =>
  new ApiError(
    "REFUND_NOT_PAID_TWICE",
    "This refund was not paid twice: only one whose money was returned to a wallet and which WeChat Pay paid out as well is settled.",
  );
export const settledAlready = () => new ApiError("REFUND_SETTLED", "This refund paid twice has been settled already.");
export const settlementAwaiting = () =>
  new ApiError(
    "SETTLEMENT_AWAITING",
    "A settlement of this refund waits for a second operator. It is approved, rejected or withdrawn before the refund is settled another way.",
  );

/** What a refusal of the settlement's statements (or of a request for one) tells the operator; null for any other error. */
export function settlementRefusal(error: unknown): ApiError | null {
  if (!(error instanceof Error)) return null;
  const { message } = error;
  if (
    /UNIQUE constraint failed: wechat_refund_settlement\.out_refund_no/.test(message) ||
    message.includes("the refund is settled already")
  ) {
    return settledAlready();
  }
  if (message.includes("refund_settlement: the refund was not paid twice")) return notPaidTwice();
  if (isOwnOrderRefusal(error)) return notForYourself();
  if (
    /UNIQUE constraint failed: wechat_refund_settlement_request\.out_refund_no/.test(message) ||
    message.includes("one waits for a second operator")
  ) {
    return settlementAwaiting();
  }
  if (isLockRefusal(error)) {
    return new ApiError("WALLET_LOCKED", "The account is locked: its money stays where it is. Paydesk can bear it instead.", "how");
  }
  if (isOverdraft(error)) {
    return new ApiError(
      "TAKE_BACK_EXCEEDS_BALANCE",
      "The wallet's available balance is less than the refund. Nothing moved: take it back once it holds enough, or let Paydesk bear it.",
      "how",
    );
  }
  return null;
}
