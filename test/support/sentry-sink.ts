import { createServer, type Server } from "node:http";

type Envelope = { path: string; header: unknown; items: unknown[] };

/**
 * A local Sentry-compatible endpoint: accepts envelopes at /api/<project>/envelope/
 * (the path a DSN `http://key@127.0.0.1:<port>/<project>` posts to) and lists them at
 * GET /envelopes, so tests can check what was reported without leaving the machine.
 */
export async function startSentrySink(port = 0): Promise<{ server: Server; port: number; dsn: string }> {
  const envelopes: Envelope[] = [];
  const server = createServer((request, response) => {
    response.setHeader("Access-Control-Allow-Origin", "*");
    response.setHeader("Access-Control-Allow-Headers", "*");
    if (request.method === "OPTIONS") return response.writeHead(204).end();
    if (request.method === "GET" && request.url === "/envelopes") {
      return response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(envelopes));
    }
    if (request.method === "DELETE" && request.url === "/envelopes") {
      envelopes.length = 0;
      return response.writeHead(204).end();
    }
    if (request.method === "POST" && /^\/api\/\d+\/envelope\//.test(request.url ?? "")) {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const lines = Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean);
        const parsed = lines.map((line) => {
          try {
            return JSON.parse(line) as unknown;
          } catch {
            return line;
          }
        });
        envelopes.push({ path: request.url ?? "", header: parsed[0], items: parsed.slice(1) });
        response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return { server, port: actualPort, dsn: `http://publickey@127.0.0.1:${actualPort}/1` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port } = await startSentrySink(Number(process.env.SENTRY_SINK_PORT ?? 8799));
  console.log(`Sentry sink on http://127.0.0.1:${port}`);
}
