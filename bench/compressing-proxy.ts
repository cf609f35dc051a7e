/**
 * A reverse proxy on 127.0.0.1 that compresses text answers with brotli, as Cloudflare's
 * edge does: `wrangler dev` sends every answer uncompressed, and Lighthouse would then time
 * bytes no visitor downloads. Given a certificate, it also speaks as Cloudflare does to a
 * browser: HTTPS with HTTP/2 (HTTP/1.1 for a client that offers nothing else), so that the
 * page's scripts share one connection instead of each opening its own
 * (docs/decisions/035-start-up-floors.md). Everything else passes through as it came: the
 * status, the headers but those of one connection (a redirect to the server itself is
 * pointed back at the proxy), binary bodies.
 */
import {
  createServer,
  request as httpRequest,
  Agent,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { constants, createBrotliCompress } from "node:zlib";
import { connectionHeaders } from "./page-headers.ts";

/** What Cloudflare compresses by content type; images and fonts are compressed already. */
const compressible = /^(text\/(html|css|javascript|plain)|application\/(javascript|json|x-javascript|manifest\+json))\b/i;

/** On-the-fly quality: the top levels cost far more CPU for a few per cent. */
const BROTLI_QUALITY = 5;

export type CompressingProxy = { url: string; close(): Promise<void> };

/** A certificate for 127.0.0.1 (bench/local-certificate.ts): with one, the proxy speaks HTTPS and HTTP/2. */
export type ProxyTls = { key: string; cert: string };

/** Whether the client named brotli in Accept-Encoding without refusing it (`br;q=0`). */
export function acceptsBrotli(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "br") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function shouldCompress(method: string, upstream: IncomingMessage, acceptEncoding: string | undefined): boolean {
  const status = upstream.statusCode ?? 0;
  return (
    method !== "HEAD" &&
    status !== 204 &&
    status !== 304 &&
    !upstream.headers["content-encoding"] &&
    compressible.test(upstream.headers["content-type"] ?? "") &&
    acceptsBrotli(acceptEncoding)
  );
}

/** Starts the proxy in front of `target` (an http:// origin on loopback). */
export async function startCompressingProxy(target: string, { tls }: { tls?: ProxyTls } = {}): Promise<CompressingProxy> {
  const upstreamUrl = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let proxyOrigin = "";

  const handle = (req: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => {
    // What the proxy uses of an answer, alike in HTTP/1.1 and in HTTP/2's compatibility API.
    const res = response as NodeJS.WritableStream & {
      headersSent: boolean;
      writeHead(status: number, headers?: OutgoingHttpHeaders): unknown;
    };
    // HTTP/2's pseudo-headers (:method, :path, :authority…) are the request line, not headers.
    const requestHeaders = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith(":")));
    const forward = httpRequest(
      {
        host: upstreamUrl.hostname,
        port: upstreamUrl.port,
        method: req.method,
        path: req.url,
        headers: { ...requestHeaders, host: upstreamUrl.host },
        agent,
      },
      (upstream) => {
        const headers: OutgoingHttpHeaders = Object.fromEntries(
          Object.entries(upstream.headers).filter(([name]) => !connectionHeaders.has(name)),
        );
        const location = upstream.headers.location;
        if (location?.startsWith(upstreamUrl.origin)) headers.location = proxyOrigin + location.slice(upstreamUrl.origin.length);
        if (!shouldCompress(req.method ?? "GET", upstream, req.headers["accept-encoding"])) {
          res.writeHead(upstream.statusCode ?? 502, headers);
          upstream.pipe(res);
          return;
        }
        delete headers["content-length"];
        headers["content-encoding"] = "br";
        const vary = upstream.headers.vary;
        headers.vary = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
        res.writeHead(upstream.statusCode ?? 502, headers);
        const brotli = createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
        });
        // A streamed page keeps streaming: each piece the server sends is flushed on at once.
        upstream.on("data", (chunk: Buffer) => {
          brotli.write(chunk);
          brotli.flush(constants.BROTLI_OPERATION_FLUSH);
        });
        upstream.on("end", () => brotli.end());
        upstream.on("error", () => brotli.destroy());
        brotli.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("bad gateway");
    });
    req.pipe(forward);
  };

  const server = tls ? createSecureServer({ ...tls, allowHTTP1: true }, handle) : createServer(handle);
  // Every connection is closed with the proxy, whichever protocol it speaks.
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  proxyOrigin = `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: proxyOrigin,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
