// A stand-in merchant for the simulator's tests: records every notification it receives,
// per notify URL path, and answers with the statuses a test planned (204 when none is left).
const received = new Map();
const plans = new Map();

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const sink = /^\/__sink\/(received|plan)(\/.*)$/.exec(url.pathname);
    if (sink && sink[1] === "received") return Response.json(received.get(sink[2]) ?? []);
    if (sink && sink[1] === "plan") {
      plans.set(sink[2], await request.json());
      return Response.json({ ok: true });
    }
    const body = await request.text();
    const list = received.get(url.pathname) ?? [];
    list.push({ url: request.url, headers: Object.fromEntries(request.headers), body });
    received.set(url.pathname, list);
    const plan = plans.get(url.pathname) ?? [];
    const next = plan.length > 0 ? plan.shift() : 204;
    if (typeof next === "object" && next.delayMs) {
      await new Promise((resolve) => setTimeout(resolve, next.delayMs));
      return new Response(null, { status: next.status ?? 204 });
    }
    return next === 200 || next === 204
      ? new Response(null, { status: next })
      : Response.json({ code: "FAIL", message: "失败" }, { status: next });
  },
};
