import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { originTimeoutMs } from "../../workers/edge/origin-proxy";
import { bodyDeadlineMs, maxApiBodyBytes, readApiBody } from "../../workers/edge/request-body";

const encoder = new TextEncoder();

function edge(path: string, init: RequestInit) {
  return exports.default.fetch(new Request(`https://paydesk.test${path}`, init));
}

/** A body that sends `first` and then nothing, never ending: a client that stalled. */
function stalledBody(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
  });
}

/** A body that never stops: only a reader that stops at the limit ends. */
function endlessBody(): { body: ReadableStream<Uint8Array>; sent: () => number } {
  let sent = 0;
  const chunk = encoder.encode("x".repeat(16 * 1024));
  return {
    body: new ReadableStream({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
    sent: () => sent,
  };
}

async function codeOf(response: Response): Promise<string> {
  return ((await response.json()) as { code: string }).code;
}

describe("an API request body at the edge", () => {
  it("that stalls is 408 REQUEST_TIMEOUT when the deadline passes", async () => {
    const started = performance.now();
    const answer = await readApiBody(new Request("https://paydesk.test/api/echo", { method: "POST", body: stalledBody('{"a":') }), {
      deadlineMs: 300,
    });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(await codeOf(answer.answer)).toBe("REQUEST_TIMEOUT");
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it(`that stalls, sent through the edge, is 408 REQUEST_TIMEOUT after ${bodyDeadlineMs / 1000} s, never the origin's 504`, async () => {
    const started = Date.now();
    const response = await edge("/api/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stalledBody('{"a":'),
    });
    expect(response.status).toBe(408);
    expect(await codeOf(response)).toBe("REQUEST_TIMEOUT");
    expect(Date.now() - started).toBeGreaterThanOrEqual(bodyDeadlineMs - 50);
    // In this harness the answer reaches the caller only once the runtime stops feeding the
    // still-open body (about twice the deadline); the edge's own 2 s is the test above.
    expect(Date.now() - started).toBeLessThan(originTimeoutMs);
  });

  it("that declares more than the limit is 413 PAYLOAD_TOO_LARGE without being read", async () => {
    const { body, sent } = endlessBody();
    const request = new Request("https://paydesk.test/api/echo", { method: "POST", body });
    const answer = await readApiBody(new Request(request, { headers: { "Content-Length": String(maxApiBodyBytes + 1) } }));
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(await codeOf(answer.answer)).toBe("PAYLOAD_TOO_LARGE");
    expect(sent()).toBeLessThanOrEqual(16 * 1024 * 2);
  });

  it("that streams past the limit is 413, read no further than the limit", async () => {
    const { body, sent } = endlessBody();
    const answer = await readApiBody(new Request("https://paydesk.test/api/echo", { method: "POST", body }));
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(await codeOf(answer.answer)).toBe("PAYLOAD_TOO_LARGE");
    expect(sent()).toBeLessThan(maxApiBodyBytes + 4 * 16 * 1024);
  });

  it("over the limit, sent through the edge without a length, is 413 PAYLOAD_TOO_LARGE", async () => {
    const chunk = encoder.encode("x".repeat(16 * 1024));
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks += 1;
        if (chunks > 12) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await edge("/api/echo", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(413);
    expect(await codeOf(response)).toBe("PAYLOAD_TOO_LARGE");
  });

  it("that ends short of its Content-Length is 400 BAD_REQUEST", async () => {
    const short = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"a":1}'));
        controller.close();
      },
    });
    const request = new Request("https://paydesk.test/api/echo", { method: "POST", body: short, headers: { "Content-Length": "100" } });
    const answer = await readApiBody(request, { deadlineMs: 500 });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(["BAD_REQUEST", "REQUEST_TIMEOUT"]).toContain(await codeOf(answer.answer));
  });

  it("that fits is passed on whole", async () => {
    const response = await edge("/api/echo", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"amount":100}' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { body: string }).body).toBe('{"amount":100}');
  });
});
