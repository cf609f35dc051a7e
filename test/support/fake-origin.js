// An origin for the proxy tests: it answers with what it received, so a test can
// see exactly what crossed the edge. Any server implementing the contract could sit here.
let requests = 0;

export default {
  async fetch(request) {
    const url = new URL(request.url);
    requests += 1;
    if (url.pathname === "/api/echo") {
      const headers = new Headers({ "Content-Type": "application/json", Connection: "close", "Keep-Alive": "timeout=5" });
      headers.append("Set-Cookie", "a=1; Path=/; HttpOnly");
      headers.append("Set-Cookie", "b=2; Path=/; HttpOnly");
      headers.set("Cache-Control", "public, max-age=600");
      return new Response(
        JSON.stringify({
          count: requests,
          method: request.method,
          path: url.pathname,
          search: url.search,
          headers: Object.fromEntries(request.headers),
          body: await request.text(),
        }),
        { status: 200, headers },
      );
    }
    if (url.pathname === "/api/slow") {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return Response.json({ code: "SUCCESS", data: "late" });
    }
    // A note tells one crash from another, which Sentry would otherwise drop as a duplicate.
    if (url.pathname === "/api/crash")
      throw new Error(`the origin crashed${url.searchParams.has("note") ? `: ${url.searchParams.get("note")}` : ""}`);
    // What a zone or proxy in front of an origin answers when the origin is down.
    if (url.pathname === "/api/zone-down") {
      return new Response("<html><body>Error 522 origin.internal.example Ray ID 8f00</body></html>", {
        status: 522,
        headers: { "Content-Type": "text/html" },
      });
    }
    if (url.pathname === "/api/json-503") return Response.json({ code: "WECHAT_PAY_UNAVAILABLE" }, { status: 503 });
    return Response.json({ code: "NOT_FOUND" }, { status: 404 });
  },
};
