import { createRequestHandler } from "react-router";
import * as build from "virtual:react-router/server-build";
import { createEdgeHandler } from "./edge/edge-handler";
import { reportingErrors } from "./edge/error-reporting";

const handle = createEdgeHandler({ build, render: createRequestHandler(build, import.meta.env.MODE) });

export default reportingErrors(handle);
