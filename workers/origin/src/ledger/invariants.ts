/**
 * The ledger's invariants (docs/decisions/003-ledger.md): checked by the operator
 * endpoint and after every test and every step of the property test.
 */
export type LedgerViolation = { invariant: string; detail: unknown };

const checks: { invariant: string; sql: string }[] = [
  {
    invariant: "money is conserved: all accounts sum to zero (the world account holds minus what came in)",
    sql: "SELECT sum(available + held) AS total FROM account HAVING total <> 0",
  },
  {
    invariant: "each account's buckets equal the sum of its entries",
    sql: `SELECT account.id, account.available, account.held,
                 coalesce(sum(CASE WHEN entry.bucket = 'available' THEN entry.amount END), 0) AS entries_available,
                 coalesce(sum(CASE WHEN entry.bucket = 'held' THEN entry.amount END), 0) AS entries_held
          FROM account LEFT JOIN entry ON entry.account_id = account.id
          GROUP BY account.id
          HAVING account.available <> entries_available OR account.held <> entries_held`,
  },
  {
    invariant: "every transaction is sealed",
    sql: "SELECT journal_tx.id FROM journal_tx LEFT JOIN tx_seal ON tx_seal.tx_id = journal_tx.id WHERE tx_seal.tx_id IS NULL",
  },
  {
    invariant: "every transaction balances and has at least two entries",
    sql: "SELECT tx_id, sum(amount) AS total, count(*) AS entries FROM entry GROUP BY tx_id HAVING total <> 0 OR entries < 2",
  },
  {
    invariant: "no user or escrow account is negative",
    sql: "SELECT id, available, held FROM account WHERE kind <> 'world' AND (available < 0 OR held < 0)",
  },
  {
    invariant: "each redeemed code moved exactly its value once",
    sql: `SELECT code_redemption.code_hash FROM code_redemption
          JOIN prepaid_code USING (code_hash)
          LEFT JOIN entry ON entry.tx_id = code_redemption.tx_id AND entry.amount > 0
          GROUP BY code_redemption.code_hash HAVING coalesce(sum(entry.amount), 0) <> max(prepaid_code.value)`,
  },
  {
    invariant: "each code batch holds exactly its count of codes",
    sql: `SELECT code_batch.id, code_batch.count, (SELECT count(*) FROM prepaid_code WHERE prepaid_code.batch = code_batch.id) AS codes
          FROM code_batch WHERE codes <> code_batch.count`,
  },
  {
    invariant: "no code of a voided batch was redeemed after the void (its voided codes are exactly those not redeemed)",
    sql: `SELECT code_batch.id, code_batch.voided_count,
                 (SELECT count(*) FROM prepaid_code WHERE prepaid_code.batch = code_batch.id
                    AND NOT EXISTS (SELECT 1 FROM code_redemption WHERE code_redemption.code_hash = prepaid_code.code_hash)) AS not_redeemed
          FROM code_batch WHERE code_batch.voided_at IS NOT NULL AND not_redeemed <> code_batch.voided_count`,
  },
  {
    invariant: "each user's held money equals the escrow their tasks still hold",
    sql: `SELECT account.owner_id, account.held, coalesce(sum(task.escrow_remaining), 0) AS escrow
          FROM account LEFT JOIN task ON task.poster_id = account.owner_id
          WHERE account.kind = 'user'
          GROUP BY account.id HAVING account.held <> escrow`,
  },
  {
    invariant: "a paid order has exactly one succeeded payment, and an unpaid order none",
    sql: `SELECT orders.id, orders.status, count(payment.id) AS succeeded FROM orders
          LEFT JOIN payment ON payment.order_id = orders.id AND payment.status = 'succeeded'
          GROUP BY orders.id HAVING (orders.status = 'paid') <> (succeeded = 1) OR succeeded > 1`,
  },
  {
    invariant: "each approved claim was paid its task's reward exactly once",
    sql: `SELECT claim.id FROM claim JOIN task ON task.id = claim.task_id
          LEFT JOIN claim_capture ON claim_capture.claim_id = claim.id
          LEFT JOIN entry ON entry.tx_id = claim_capture.tx_id AND entry.amount > 0
          GROUP BY claim.id
          HAVING (claim.status = 'approved') <> (count(claim_capture.claim_id) > 0)
              OR (claim.status = 'approved' AND coalesce(sum(entry.amount), 0) <> max(task.reward))`,
  },
  {
    invariant: "each transfer moved exactly its amount",
    sql: `SELECT transfer.id FROM transfer LEFT JOIN entry ON entry.tx_id = transfer.tx_id AND entry.amount > 0
          GROUP BY transfer.id HAVING coalesce(sum(entry.amount), 0) <> max(transfer.amount)`,
  },
  {
    invariant: "each WeChat Pay payment that succeeded brought in exactly its amount, once",
    sql: `SELECT payment.id FROM payment LEFT JOIN entry ON entry.tx_id = payment.tx_id AND entry.amount > 0
          WHERE payment.method = 'wechat' AND payment.status = 'succeeded'
          GROUP BY payment.id HAVING coalesce(sum(entry.amount), 0) <> max(payment.amount)`,
  },
  {
    invariant: "a WeChat Pay payment is refunded exactly when it has an automatic refund",
    sql: `SELECT payment.id, payment.status, count(wechat_refund.payment_id) AS refunds FROM payment
          LEFT JOIN wechat_refund ON wechat_refund.payment_id = payment.id AND wechat_refund.reason <> 'operator'
          WHERE payment.method = 'wechat'
          GROUP BY payment.id HAVING (payment.status = 'refunded') <> (refunds = 1)`,
  },
  {
    invariant:
      "each WeChat Pay refund moved its amount in once, and when it succeeded, out of the clearing account once, to the world unless WeChat Pay paid out another amount (checked below)",
    sql: `SELECT wechat_refund.out_refund_no FROM wechat_refund
          WHERE (SELECT coalesce(sum(amount), 0) FROM entry WHERE entry.tx_id = wechat_refund.in_tx_id AND amount > 0) <> wechat_refund.amount
             OR (wechat_refund.status = 'succeeded'
                 AND ((SELECT coalesce(sum(amount), 0) FROM entry WHERE entry.tx_id = wechat_refund.out_tx_id
                         AND entry.account_id = 'acc_wechat_clearing') <> -wechat_refund.amount
                   OR (NOT EXISTS (SELECT 1 FROM wechat_refund_other_amount WHERE wechat_refund_other_amount.out_refund_no = wechat_refund.out_refund_no)
                       AND (SELECT coalesce(sum(amount), 0) FROM entry WHERE entry.tx_id = wechat_refund.out_tx_id
                              AND entry.account_id = 'acc_world') <> wechat_refund.amount)))`,
  },
  {
    invariant:
      "each parked refund settled for another amount booked WeChat Pay's payout to the world, and the rest of the asked amount to the order's owner or, above it, from Paydesk's covered account, in its refund's own transaction",
    sql: `SELECT other.out_refund_no FROM wechat_refund_other_amount AS other
          JOIN wechat_refund USING (out_refund_no) JOIN orders ON orders.id = wechat_refund.order_id
          WHERE wechat_refund.status <> 'succeeded' OR wechat_refund.out_tx_id IS NOT other.tx_id OR other.user_id <> orders.user_id
             OR (SELECT kind FROM journal_tx WHERE journal_tx.id = other.tx_id) IS NOT 'refund'
             OR (SELECT count(*) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = other.tx_id) <> 3
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = other.tx_id
                   AND entry.account_id = 'acc_world') <> other.refunded
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = other.tx_id
                   AND entry.account_id = CASE WHEN other.refunded < wechat_refund.amount THEN 'acc_' || other.user_id ELSE 'acc_paydesk_covered' END
                   AND entry.bucket = 'available') <> wechat_refund.amount - other.refunded`,
  },
  {
    invariant: "the WeChat Pay clearing account holds exactly the refunds not yet done nor returned to a wallet",
    sql: `SELECT held_money, owed FROM (
            SELECT (SELECT coalesce(sum(available + held), 0) FROM account WHERE id = 'acc_wechat_clearing') AS held_money,
                   (SELECT coalesce(sum(amount), 0) FROM wechat_refund WHERE status <> 'succeeded'
                      AND NOT EXISTS (SELECT 1 FROM wechat_refund_return WHERE wechat_refund_return.out_refund_no = wechat_refund.out_refund_no)) AS owed)
          WHERE held_money <> owed`,
  },
  {
    invariant:
      "each failed WeChat Pay refund returned to a wallet moved exactly its amount from the clearing account to the order's owner, once",
    sql: `SELECT wechat_refund_return.out_refund_no FROM wechat_refund_return
          JOIN wechat_refund USING (out_refund_no) JOIN orders ON orders.id = wechat_refund.order_id
          WHERE wechat_refund.status = 'succeeded' OR wechat_refund_return.user_id <> orders.user_id
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = wechat_refund_return.tx_id
                   AND entry.account_id = 'acc_' || orders.user_id AND entry.bucket = 'available' AND amount > 0) <> wechat_refund.amount
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = wechat_refund_return.tx_id
                   AND entry.account_id = 'acc_wechat_clearing') <> -wechat_refund.amount`,
  },
  {
    invariant:
      "each refund paid twice and settled booked exactly what WeChat Pay paid out late (its amount, or a parked refund's reported one) out to the world, from the wallet it was returned to (take back) or from Paydesk's covered account (bear), in one refund transaction of two entries; one paid to Paydesk's own account, nothing",
    sql: `SELECT settled.out_refund_no FROM wechat_refund_settlement AS settled
          JOIN wechat_refund_return AS returned USING (out_refund_no) JOIN wechat_refund USING (out_refund_no)
          WHERE returned.late_success_at IS NULL
             OR (settled.how <> 'to_paydesk' AND (
                (SELECT kind FROM journal_tx WHERE journal_tx.id = settled.tx_id) IS NOT 'refund'
             OR (SELECT count(*) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = settled.tx_id) <> 2
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = settled.tx_id
                   AND entry.account_id = 'acc_world') <> coalesce(returned.late_success_amount, wechat_refund.amount)
             OR (SELECT coalesce(sum(amount), 0) FROM entry INDEXED BY entry_tx WHERE entry.tx_id = settled.tx_id
                   AND entry.account_id = CASE settled.how WHEN 'take_back' THEN 'acc_' || returned.user_id ELSE 'acc_paydesk_covered' END
                   AND entry.bucket = 'available') <> -coalesce(returned.late_success_amount, wechat_refund.amount)))`,
  },
  {
    invariant: "refunds of a payment never add up to more than it",
    sql: `SELECT refund_request.payment_id, sum(refund_request.amount) AS refunded, max(payment.amount) AS paid
          FROM refund_request JOIN payment ON payment.id = refund_request.payment_id
          WHERE refund_request.status <> 'rejected'
          GROUP BY refund_request.payment_id HAVING refunded > paid`,
  },
  {
    invariant: "each approved refund moved exactly its amount, once; a WeChat Pay one through its WeChat Pay refund",
    sql: `SELECT refund_request.id FROM refund_request
          WHERE refund_request.status = 'approved'
            AND ((SELECT coalesce(sum(amount), 0) FROM entry WHERE entry.tx_id = refund_request.tx_id AND amount > 0) <> refund_request.amount
              OR (refund_request.method = 'wechat'
                  AND NOT EXISTS (SELECT 1 FROM wechat_refund WHERE request_id = refund_request.id AND in_tx_id = refund_request.tx_id
                                  AND amount = refund_request.amount)))`,
  },
  {
    invariant: "the daily volume the overview reads is what the sealed transactions' entries say",
    sql: `SELECT day, kind, kept_amount, kept_transactions, amount, transactions FROM (
            SELECT coalesce(kept.day, actual.day) AS day, coalesce(kept.kind, actual.kind) AS kind,
                   kept.amount AS kept_amount, kept.transactions AS kept_transactions, actual.amount, actual.transactions
            FROM daily_volume AS kept
            FULL JOIN (
              SELECT date(journal_tx.created_at / 1000 + 28800, 'unixepoch') AS day, journal_tx.kind,
                     coalesce(sum(positive.amount), 0) AS amount, count(*) AS transactions
              FROM journal_tx JOIN tx_seal ON tx_seal.tx_id = journal_tx.id
              LEFT JOIN (SELECT tx_id, sum(amount) AS amount FROM entry WHERE amount > 0 GROUP BY tx_id) AS positive
                ON positive.tx_id = journal_tx.id
              GROUP BY day, journal_tx.kind
            ) AS actual ON actual.day = kept.day AND actual.kind = kept.kind)
          WHERE kept_amount IS NOT amount OR kept_transactions IS NOT transactions`,
  },
];

export async function ledgerViolations(db: D1Database): Promise<LedgerViolation[]> {
  const results = await db.batch(checks.map((check) => db.prepare(check.sql)));
  return results.flatMap((result, index) =>
    (result.results ?? []).map((detail) => ({ invariant: checks[index]?.invariant ?? "?", detail })),
  );
}
