import { reportingErrors } from "../../error-reporting";
import { createOriginApp } from "./app";
import { runTimeBasedRules } from "./scheduled";

const app = createOriginApp();

export default reportingErrors<Env>(async (request, env, ctx) => app.fetch(request, env, ctx), {
  async scheduled(controller, env) {
    await runTimeBasedRules(env.DB, controller.scheduledTime);
  },
});
