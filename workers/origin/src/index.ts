import { reportingErrors } from "./error-reporting";
import { createOriginApp, type OriginApp } from "./app";
import { runTimeBasedRules } from "./scheduled";
import { simulatorBound } from "./wechat-pay/config";
import { wechatPayFactory } from "./wechat-pay/factory";

// Built on the first request, once the bindings are known: the emulation routes exist only
// where the WeChat Pay simulator is bound. An isolate's bindings do not change; one app per
// answer still serves an environment that differs (tests call this worker with both).
const apps = new Map<boolean, OriginApp>();
function appFor(env: Env): OriginApp {
  const emulation = simulatorBound(env);
  const known = apps.get(emulation);
  if (known) return known;
  const app = createOriginApp({ emulation });
  apps.set(emulation, app);
  return app;
}

const wechatPayOf = wechatPayFactory({ now: () => Date.now() });

export default reportingErrors<Env>(async (request, env, ctx) => appFor(env).fetch(request, env, ctx), {
  async scheduled(controller, env) {
    await runTimeBasedRules(env.DB, controller.scheduledTime, { wechatPay: await wechatPayOf(env) });
  },
});
