import { createRequestHandler } from "react-router";

// As in the official Cloudflare template: the server build is imported on the first request.
const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  fetch(request) {
    return requestHandler(request);
  },
} satisfies ExportedHandler<Env>;
