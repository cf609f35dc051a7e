import { assertInBatch } from "../idempotency/batch-assertion";

/**
 * The contact form works signed out, so nothing but who sends can bound it: at most 5
 * messages an hour from one client address and 3 an hour for one email address (defaults).
 */
export const contactLimits = { perAddress: 5, perEmail: 3, windowMs: 60 * 60 * 1000 } as const;

export type ContactSender = { address: string; email: string; at: number };

const ipv4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/** An IPv6 address's /64 network (what one subscriber gets, and can rotate within), or null. */
function ipv6Network(address: string): string | null {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:((?:\d{1,3}\.){3}\d{1,3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const halves = lower.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  // An embedded IPv4 address at the end stands for two groups.
  const width = head.length + tail.length + (ipv4.test(tail.at(-1) ?? head.at(-1) ?? "") ? 1 : 0);
  const missing = 8 - width;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const network = [...head, ...Array<string>(missing).fill("0"), ...tail].slice(0, 4);
  if (!network.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return `${network.map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * The client's address as a limit counts it, from the address the origin believes
 * (`clientIp`, http/edge-trust.ts): IPv6 addresses count by their /64.
 */
export function clientAddress(believed: string | null): string {
  const raw = (believed ?? "").trim();
  if (raw === "") return "unknown";
  if (ipv4.test(raw)) return raw;
  return (raw.includes(":") && raw.length <= 45 ? ipv6Network(raw) : null) ?? "malformed";
}

/** An email address as the limit counts it: case and a `+tag` do not make another sender. */
export function emailForLimit(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at).replace(/\+.*$/, "");
  return `${local}@${email.slice(at + 1)}`.toLowerCase();
}

/**
 * Counts one accepted message, in the batch that opens its ticket: the assertion refuses
 * the whole batch when either limit is reached, and D1 runs batches one at a time, so
 * messages sent at once cannot together pass a limit.
 */
export function contactAttemptStatements(db: D1Database, sender: ContactSender): D1PreparedStatement[] {
  const since = sender.at - contactLimits.windowMs;
  return [
    db.prepare("DELETE FROM contact_attempt WHERE at <= ?1").bind(since),
    assertInBatch(
      db,
      "the contact form's limits",
      `(SELECT count(*) FROM contact_attempt WHERE address = ? AND at > ?) < ?
       AND (SELECT count(*) FROM contact_attempt WHERE email = ? AND at > ?) < ?`,
      sender.address,
      since,
      contactLimits.perAddress,
      sender.email,
      since,
      contactLimits.perEmail,
    ),
    db.prepare("INSERT INTO contact_attempt (address, email, at) VALUES (?1, ?2, ?3)").bind(sender.address, sender.email, sender.at),
  ];
}

/** How long until the sender may send again: when the oldest counted message of each full limit leaves the window. */
export async function contactRetryAfterMs(db: D1Database, sender: ContactSender): Promise<number> {
  const since = sender.at - contactLimits.windowMs;
  const row = await db
    .prepare(
      `SELECT
         CASE WHEN (SELECT count(*) FROM contact_attempt WHERE address = ?1 AND at > ?3) >= ?4
              THEN (SELECT min(at) FROM contact_attempt WHERE address = ?1 AND at > ?3) END AS address_oldest,
         CASE WHEN (SELECT count(*) FROM contact_attempt WHERE email = ?2 AND at > ?3) >= ?5
              THEN (SELECT min(at) FROM contact_attempt WHERE email = ?2 AND at > ?3) END AS email_oldest`,
    )
    .bind(sender.address, sender.email, since, contactLimits.perAddress, contactLimits.perEmail)
    .first<{ address_oldest: number | null; email_oldest: number | null }>();
  const oldest = Math.max(row?.address_oldest ?? 0, row?.email_oldest ?? 0);
  return oldest === 0 ? 1_000 : Math.max(1_000, oldest + contactLimits.windowMs - sender.at);
}
