import { reportingErrors } from "./error-reporting";
import { createOriginApp } from "./app";
import { wechatPayFactory } from "./payments/wechat-config";
import { runTimeBasedRules } from "./scheduled";

const app = createOriginApp();
const wechatPayOf = wechatPayFactory({ now: () => Date.now() });

export default reportingErrors<Env>(async (request, env, ctx) => app.fetch(request, env, ctx), {
  async scheduled(controller, env) {
    await runTimeBasedRules(env.DB, controller.scheduledTime, { wechatPay: await wechatPayOf(env) });
  },
});
