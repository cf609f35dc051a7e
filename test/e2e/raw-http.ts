/**
 * HTTP/1.1 over a raw socket, for requests no well-behaved client would send: a body shorter
 * than its Content-Length, one that stalls, malformed headers. Resolves with the first whole
 * answer, or with `hung: true` when none arrives within the time given.
 */
import { connect } from "node:net";

export type RawAnswer = { status: number; headers: Record<string, string>; body: string; ms: number; hung: boolean };

export type RawSend = {
  /** Sent at once. */
  head: string;
  body?: Buffer | string;
  /** Sent after `stallMs`, if given; with `end`, the socket's writing side is closed after it. */
  later?: { stallMs: number; body?: string; end?: boolean };
  /** Close the writing side right after the first part (a body cut short). */
  endAfterFirst?: boolean;
  timeoutMs?: number;
};

function parse(buffer: Buffer): Omit<RawAnswer, "ms" | "hung"> | null {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine = "", ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = buffer.subarray(end + 4);
  if (headers["transfer-encoding"]?.includes("chunked")) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf("\r\n");
      if (lineEnd < 0) return null;
      const size = Number.parseInt(rest.subarray(0, lineEnd).toString(), 16);
      if (size === 0) return { status, headers, body: Buffer.concat(parts).toString("utf8") };
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  }
  const length = Number(headers["content-length"] ?? 0);
  if (rest.length < length) return null;
  return { status, headers, body: rest.subarray(0, length).toString("utf8") };
}

export function rawRequest(port: number, send: RawSend): Promise<RawAnswer> {
  const started = performance.now();
  const timeoutMs = send.timeoutMs ?? 8_000;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (answer: Omit<RawAnswer, "ms" | "hung">, hung: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, ms: performance.now() - started, hung });
    };
    const nothing = () => ({ status: 0, headers: {}, body: received.toString("latin1") });
    const timer = setTimeout(() => finish(nothing(), true), timeoutMs);
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = parse(received);
      if (answer) finish(answer, false);
    });
    // A server that closes without a whole answer has answered nothing: reported as status 0.
    socket.on("close", () => finish(parse(received) ?? nothing(), false));
    socket.on("error", () => {});
    socket.write(send.head);
    if (send.body !== undefined) socket.write(send.body);
    if (send.endAfterFirst) socket.end();
    const later = send.later;
    if (later) {
      setTimeout(() => {
        if (done) return;
        if (later.body !== undefined) socket.write(later.body);
        if (later.end) socket.end();
      }, later.stallMs);
    }
  });
}

/** An HTTP/1.1 request head; `Connection: close` unless headers say otherwise. */
export function head(method: string, target: string, headers: [string, string][], port: number): string {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (!headers.some(([name]) => name.toLowerCase() === "connection")) lines.push("Connection: close");
  return `${lines.join("\r\n")}\r\n\r\n`;
}
