import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, testOrigin, type TestOrigin } from "../../test/origin-client";
import { clientAddress, contactLimits, emailForLimit } from "./contact-limits";

let origin: TestOrigin;
let sent = 0;

type From = { ip?: string; email?: string; key?: string };
function contact({ ip, email, key = `contact-${crypto.randomUUID()}` }: From = {}) {
  sent += 1;
  const from = email ?? `visitor${sent}@example.com`;
  const headers: Record<string, string> = { "Idempotency-Key": key };
  if (ip) headers["X-Real-IP"] = ip;
  return origin.call("/api/support/contact", { body: { email: from, subject: "Hello", message: "A question about invoices." }, headers });
}

const tickets = async () => env.DB.prepare("SELECT count(*) AS n FROM ticket").first<number>("n");
const statuses = (answers: Response[]) => answers.map((answer) => answer.status).sort();

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("the contact form's limits", () => {
  it("takes 5 messages an hour from one address, then answers 429 RATE_LIMITED with Retry-After", async () => {
    for (let n = 0; n < contactLimits.perAddress; n += 1) {
      expect((await contact({ ip: "203.0.113.7" })).status).toBe(201);
      origin.advance(60_000);
    }
    const refused = await contact({ ip: "203.0.113.7" });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("55 minutes") });
    expect(refused.headers.get("Retry-After")).toBe(String(55 * 60));
    expect((await contact({ ip: "203.0.113.8" })).status).toBe(201);

    // An hour after the first message, one place is free again.
    origin.advance(55 * 60_000);
    expect((await contact({ ip: "203.0.113.7" })).status).toBe(201);
    expect((await contact({ ip: "203.0.113.7" })).status).toBe(429);
    expect(await tickets()).toBe(7);
  });

  it("takes 3 messages an hour for one email address, whatever its case or +tag, from any address", async () => {
    const variants = ["Alex@Example.com", "alex+1@example.com", "ALEX+support@EXAMPLE.COM", "alex@example.com"];
    const answers = [];
    for (const [n, email] of variants.entries()) answers.push(await contact({ ip: `198.51.100.${n + 1}`, email }));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
    expect((await contact({ ip: "198.51.100.9", email: "alexa@example.com" })).status).toBe(201);
  });

  it("lets exactly the limit through when many messages arrive at once", async () => {
    const fromOneAddress = await Promise.all(Array.from({ length: 12 }, () => contact({ ip: "192.0.2.44" })));
    expect(statuses(fromOneAddress)).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    const forOneEmail = await Promise.all(
      Array.from({ length: 8 }, (_, n) => contact({ ip: `192.0.2.${100 + n}`, email: "same@example.com" })),
    );
    expect(statuses(forOneEmail)).toEqual([...Array(3).fill(201), ...Array(5).fill(429)]);
    expect(await tickets()).toBe(8);
  });

  it("does not count a retry with the same key: it replays the first answer", async () => {
    const key = "contact-retry-01";
    const first = await contact({ ip: "192.0.2.1", email: "once@example.com", key });
    const retries = await Promise.all(Array.from({ length: 6 }, () => contact({ ip: "192.0.2.1", email: "once@example.com", key })));
    expect(retries.every((retry) => retry.headers.get("Idempotent-Replayed") === "true")).toBe(true);
    expect(new Set(await Promise.all(retries.map((retry) => retry.text())))).toEqual(new Set([await first.text()]));
    for (let n = 0; n < contactLimits.perAddress - 1; n += 1) expect((await contact({ ip: "192.0.2.1" })).status).toBe(201);
    expect((await contact({ ip: "192.0.2.1" })).status).toBe(429);
  });

  it("does not record a refusal for its key: after the hour the same message goes through", async () => {
    for (let n = 0; n < contactLimits.perEmail; n += 1) await contact({ email: "busy@example.com", ip: `192.0.2.${n + 1}` });
    const refused = await contact({ email: "busy@example.com", ip: "192.0.2.50", key: "contact-later-01" });
    expect(refused.status).toBe(429);
    origin.advance(contactLimits.windowMs);
    expect((await contact({ email: "busy@example.com", ip: "192.0.2.50", key: "contact-later-01" })).status).toBe(201);
  });

  it("counts IPv6 senders by their /64", async () => {
    for (let n = 1; n <= contactLimits.perAddress; n += 1) {
      expect((await contact({ ip: `2001:db8:1:2::${n}` })).status).toBe(201);
    }
    expect((await contact({ ip: "2001:0db8:0001:0002:ffff:ffff:ffff:ffff" })).status).toBe(429);
    expect((await contact({ ip: "2001:db8:1:3::1" })).status).toBe(201);
  });
});

describe("who a sender is", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:DB8:0:0:1::", "2001:db8:0:0::/64"],
    ["::ffff:198.51.100.3", "198.51.100.3"],
    ["::1", "0:0:0:0::/64"],
    ["not an address", "malformed"],
    ["1:2:3:4:5:6:7:8:9", "malformed"],
    ["", "unknown"],
    [null, "unknown"],
  ])("%o is %s", (believed, expected) => {
    expect(clientAddress(believed)).toBe(expected);
  });

  it("counts an email address without its case and +tag", () => {
    expect(emailForLimit("Alex+News@Example.COM")).toBe("alex@example.com");
    expect(emailForLimit("a.b@example.com")).toBe("a.b@example.com");
  });
});
