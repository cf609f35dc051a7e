import { reportingErrors } from "../../error-reporting";
import { createOriginApp } from "./app";

const app = createOriginApp();

export default reportingErrors<Env>(async (request, env, ctx) => app.fetch(request, env, ctx));
