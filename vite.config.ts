import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // The reference origin runs beside the edge worker in `dev` and `preview`,
      // reached through the ORIGIN service binding of wrangler.toml.
      auxiliaryWorkers: [{ configPath: "./workers/origin/wrangler.toml" }],
    }),
    reactRouter(),
  ],
});
