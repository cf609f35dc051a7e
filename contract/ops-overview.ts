/** The back office's overview (docs/decisions/017-back-office-overview.md). */
import { z } from "zod";

const fen = z.number().int();
const count = z.number().int().nonnegative();

export const overviewSchema = z.strictObject({
  /** Money right now, in fen. */
  money: z.strictObject({
    walletsAvailable: fen,
    walletsHeld: fen,
    /** What tasks still hold for their rewards (part of `walletsHeld`). */
    taskEscrow: fen,
    /** In the WeChat Pay clearing account: refunds on their way back to payers. */
    wechatClearing: fen,
    /** The world account: minus everything that ever came in, plus what went out. */
    world: fen,
    /**
     * What Paydesk's own money has covered, as a positive amount: refunds paid twice that it
     * bore (docs/decisions/060-refunds-paid-twice.md). The world account less this is minus
     * what the wallets and the WeChat Pay refunds not yet done hold.
     */
    paydeskCovered: fen,
  }),
  /**
   * The ledger's invariants as of their latest check (the cron's, every ten minutes; afresh
   * when none ran within the hour): how many rows broke one (0 when all is well), and when.
   */
  ledger: z.strictObject({ violations: count, checkedAt: z.iso.datetime() }),
  /** Money moved per day (China time) and kind of journal transaction, the last 30 days. */
  dailyVolume: z.array(z.strictObject({ day: z.iso.date(), kind: z.string(), amount: fen, transactions: count })),
  /** Tickets waiting for an operator, by how long since they last moved. */
  openTickets: z.strictObject({ underADay: count, oneToThreeDays: count, olderThanThreeDays: count }),
  pending: z.strictObject({
    wechatPayments: count,
    /** WeChat Pay refunds on their way: due or processing, and not parked. */
    wechatRefunds: count,
    /**
     * WeChat Pay refunds that need a hand (docs/decisions/048-failed-wechat-refunds.md): failed
     * (abnormal, closed, refused) and not returned to a wallet, parked (WeChat Pay reported
     * another amount), or returned, paid out by WeChat Pay as well and not yet settled
     * (docs/decisions/060-refunds-paid-twice.md).
     */
    wechatRefundsStuck: count,
    refundApprovals: count,
    /**
     * Requests waiting for a second operator that can still be approved
     * (docs/decisions/064-second-operators-are-other-people.md): code batches whose expiry
     * has not passed, recovery links and roles within their day.
     */
    codeBatchApprovals: count,
    recoveryLinkApprovals: count,
    roleApprovals: count,
  }),
});
export type Overview = z.infer<typeof overviewSchema>;
