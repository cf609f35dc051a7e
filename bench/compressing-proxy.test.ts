import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, constants as http2 } from "node:http2";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptsBrotli, startCompressingProxy, type CompressingProxy } from "./compressing-proxy.ts";
import { makeLocalCertificate, type LocalCertificate } from "./local-certificate.ts";

const html = `<!doctype html><html lang="en"><body>${"<p>Help text that repeats. </p>".repeat(200)}</body></html>`;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 2000 }, (_, i) => i % 251)]);

let upstream: Server;
let upstreamOrigin: string;
let proxy: CompressingProxy;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === "/page") {
      // Keep-Alive belongs to this connection: a proxy does not pass it on (HTTP/2 would refuse it).
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "X-Edge-Cache": "HIT",
        Vary: "Accept-Language",
        "Keep-Alive": "timeout=5",
      });
      // Two pieces, as a streamed page arrives.
      res.write(html.slice(0, 1000));
      setTimeout(() => res.end(html.slice(1000)), 20);
    } else if (req.url === "/data.json") {
      res.writeHead(201, { "Content-Type": "application/json", "Set-Cookie": "a=1" });
      res.end(JSON.stringify({ code: "SUCCESS", data: { list: Array.from({ length: 100 }, (_, i) => i) } }));
    } else if (req.url === "/logo.png") {
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(png.length) });
      res.end(png);
    } else if (req.url === "/moved") {
      res.writeHead(303, { Location: `${upstreamOrigin}/page?x=1`, "Cache-Control": "no-store" });
      res.end();
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end(`not found: ${req.method} ${req.url} host ${req.headers.host}`);
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startCompressingProxy(upstreamOrigin);
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});

/** A raw GET (fetch would decompress by itself and hide what came over the wire). */
function get(path: string, acceptEncoding?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${proxy.url}${path}`, { headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the compressing proxy", () => {
  it("compresses a streamed HTML page with brotli and keeps its status and headers", async () => {
    const { status, headers, body } = await get("/page", "gzip, deflate, br");
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBe("br");
    expect(headers["x-edge-cache"]).toBe("HIT");
    expect(headers.vary).toBe("Accept-Language, Accept-Encoding");
    expect(headers["content-length"]).toBeUndefined();
    expect(body.length).toBeLessThan(html.length / 5);
    expect(brotliDecompressSync(body).toString()).toBe(html);
  });

  it("compresses JSON and keeps a non-200 status and Set-Cookie", async () => {
    const { status, headers, body } = await get("/data.json", "br");
    expect(status).toBe(201);
    expect(headers["set-cookie"]).toEqual(["a=1"]);
    expect(headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(body).toString())).toMatchObject({ code: "SUCCESS" });
  });

  it("leaves text uncompressed for a client that does not accept brotli", async () => {
    for (const acceptEncoding of [undefined, "gzip", "br;q=0, gzip"]) {
      const { headers, body } = await get("/page", acceptEncoding);
      expect(headers["content-encoding"]).toBeUndefined();
      expect(body.toString()).toBe(html);
    }
  });

  it("passes a binary body through byte for byte", async () => {
    const { status, headers, body } = await get("/logo.png", "br");
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["content-length"]).toBe(String(png.length));
    expect(body.equals(png)).toBe(true);
  });

  it("points a redirect to the server back at the proxy", async () => {
    const { status, headers } = await get("/moved", "br");
    expect(status).toBe(303);
    expect(headers.location).toBe(`${proxy.url}/page?x=1`);
    expect(headers["cache-control"]).toBe("no-store");
  });

  it("forwards the path and query, with the server's own host", async () => {
    const { status, body } = await get("/nowhere?q=1", "gzip");
    expect(status).toBe(404);
    expect(body.toString()).toBe(`not found: GET /nowhere?q=1 host ${new URL(upstreamOrigin).host}`);
  });

  it.each([
    ["gzip, deflate, br, zstd", true],
    ["BR", true],
    ["br;q=0.5", true],
    ["br;q=0", false],
    ["gzip", false],
    ["", false],
  ])("reads Accept-Encoding %j as brotli %s", (header, accepted) => {
    expect(acceptsBrotli(header)).toBe(accepted);
  });
});

describe("the compressing proxy over HTTPS with HTTP/2, as Cloudflare speaks to a browser", () => {
  let certificate: LocalCertificate;
  let secure: CompressingProxy;

  beforeAll(async () => {
    const made = makeLocalCertificate();
    if ("error" in made) throw new Error(`the bench's TLS needs openssl: ${made.error}`);
    certificate = made;
    secure = await startCompressingProxy(upstreamOrigin, { tls: certificate });
  });

  afterAll(async () => {
    await secure.close();
  });

  /** A GET over one HTTP/2 session that trusts the bench's certificate and nothing else. */
  async function getOverHttp2(path: string): Promise<{ protocol: string | undefined; headers: Record<string, unknown>; body: Buffer }> {
    const session = connect(secure.url, { ca: certificate.cert });
    try {
      return await new Promise((resolve, reject) => {
        session.once("error", reject);
        const stream = session.request({ [http2.HTTP2_HEADER_PATH]: path, "accept-encoding": "br" });
        const chunks: Buffer[] = [];
        let headers: Record<string, unknown> = {};
        stream.once("response", (h) => {
          headers = h;
        });
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.once("end", () => resolve({ protocol: session.alpnProtocol, headers, body: Buffer.concat(chunks) }));
        stream.once("error", reject);
      });
    } finally {
      session.close();
    }
  }

  it("answers a page over HTTP/2, compressed, without the headers of the server's connection", async () => {
    expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { protocol, headers, body } = await getOverHttp2("/page");
    expect(protocol).toBe("h2");
    expect(headers[":status"]).toBe(200);
    expect(headers["content-encoding"]).toBe("br");
    expect(headers["x-edge-cache"]).toBe("HIT");
    expect(headers["keep-alive"]).toBeUndefined();
    expect(brotliDecompressSync(body).toString()).toBe(html);
  });

  it("points a redirect to the server back at the proxy's https origin", async () => {
    const { headers } = await getOverHttp2("/moved");
    expect(headers[":status"]).toBe(303);
    expect(headers.location).toBe(`${secure.url}/page?x=1`);
  });
});
