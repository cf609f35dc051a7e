import { getPath } from "hono/utils/url";
import { reportingErrors } from "./error-reporting";
import { createOriginApp, type OriginApp, openApiPath } from "./app";
import { segmentOf } from "./routers";
import { simulatorBound } from "./wechat-pay/config";
import { wechatPayOnFirstUse } from "./wechat-pay/on-first-use";

const wechatPay = wechatPayOnFirstUse({ now: () => Date.now() });

// Built on the first request that needs it, once the bindings are known: one app per key of
// routers.ts (a path's first segment under /api, or its first two), with only that key's
// routers evaluated, and the whole API for the published document (docs/decisions/041-origin-routers-on-first-use.md).
// The emulation routes exist only where the WeChat Pay simulator is bound; an isolate's
// bindings do not change, and one app per answer still serves an environment that differs
// (tests call this worker with both).
const apps = new Map<string, Promise<OriginApp>>();
function appFor(request: Request, env: Env): Promise<OriginApp> {
  const emulation = simulatorBound(env);
  const path = getPath(request);
  const segment = path === openApiPath ? undefined : segmentOf(path);
  const key = `${emulation} ${segment ?? "*"}`;
  let app = apps.get(key);
  if (!app) {
    app = createOriginApp({ emulation, segment, wechatPay });
    apps.set(key, app);
    // A failed build is tried again by the next request, not remembered.
    app.catch(() => apps.delete(key));
  }
  return app;
}

export default reportingErrors<Env>(async (request, env, ctx) => (await appFor(request, env)).fetch(request, env, ctx), {
  async scheduled(controller, env) {
    // The cron's rules are evaluated when the cron first runs, not with every isolate.
    const { runTimeBasedRules } = await import("./scheduled");
    await runTimeBasedRules(env.DB, controller.scheduledTime, { wechatPay: await wechatPay(env), settings: env });
  },
});
