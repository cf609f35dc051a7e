/**
 * A reverse proxy on 127.0.0.1 that compresses text answers with brotli, as Cloudflare's
 * edge does: `wrangler dev` sends every answer uncompressed, and Lighthouse would then time
 * bytes no visitor downloads. Everything else passes through as it came: the status, the
 * headers (a redirect to the server itself is pointed back at the proxy), binary bodies.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { constants, createBrotliCompress } from "node:zlib";

/** What Cloudflare compresses by content type; images and fonts are compressed already. */
const compressible = /^(text\/(html|css|javascript|plain)|application\/(javascript|json|x-javascript|manifest\+json))\b/i;

/** On-the-fly quality: the top levels cost far more CPU for a few per cent. */
const BROTLI_QUALITY = 5;

export type CompressingProxy = { url: string; close(): Promise<void> };

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
export async function startCompressingProxy(target: string): Promise<CompressingProxy> {
  const upstreamUrl = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let proxyOrigin = "";

  const server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstreamUrl.hostname,
        port: upstreamUrl.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstreamUrl.host },
        agent,
      },
      (upstream) => {
        const headers: OutgoingHttpHeaders = { ...upstream.headers };
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
  });

  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  proxyOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: proxyOrigin,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
