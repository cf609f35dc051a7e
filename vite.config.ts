import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { clientChunks } from "./vite/client-chunks.ts";
import { originChunks } from "./vite/origin-chunks.ts";
import { edgeReactDomServer } from "./vite/edge-react-dom-server.ts";
import { zodOpenApiExtendsZodType } from "./vite/zod-openapi-extends-zod-type.ts";

const originConfigPath = "./workers/origin/wrangler.toml";

export default defineConfig(({ command, isPreview }) => {
  // Local emulation of WeChat Pay, in `dev` only (never in a build or `preview`): the
  // simulator runs beside the origin; the origin reaches it through the WECHATPAY_SIMULATOR
  // service binding and takes its TEST-ONLY merchant from it (no key in any config file);
  // the simulator notifies the origin through its NOTIFY binding.
  // PAYDESK_WECHATPAY_SIMULATOR=off leaves it out (e.g. to try a real sandbox merchant
  // configured in workers/origin/.dev.vars).
  const emulateWechatPay = command === "serve" && !isPreview && process.env.PAYDESK_WECHATPAY_SIMULATOR !== "off";
  return {
    // Dependencies only some routes import: pre-bundled when `dev` starts, so the first visit
    // to such a route does not make Vite re-optimise and reload the page mid-way.
    optimizeDeps: { include: ["uqr", "zod", "@simplewebauthn/browser"] },
    // Both workers are minified like the browser's code: half the bytes to upload and for
    // workerd to parse at each start (docs/decisions/023-speed.md); their source maps stay.
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: { codeSplitting: clientChunks() },
            // A contract module only defines schemas: one the code does not use may be left out,
            // so a group of schemas gets those its forms check and few others
            // (docs/decisions/067-form-rules-with-their-form.md).
            treeshake: { moduleSideEffects: [{ test: /[\\/]contract[\\/][^\\/]+\.ts$/, sideEffects: false }] },
          },
        },
      },
      ssr: { build: { minify: true } },
      paydesk_origin: { build: { minify: true, rolldownOptions: { output: originChunks() } } },
    },
    plugins: [
      cloudflare({
        viteEnvironment: { name: "ssr" },
        // In `dev`, @sentry/cloudflare resolves its development build, which imports
        // node:diagnostics_channel: there the edge gets Node's APIs back. Builds keep
        // wrangler.toml's flags, which leave them out (docs/decisions/034-lighter-edge.md).
        config: (edge) => {
          if (command === "serve" && !isPreview) edge.compatibility_flags = ["nodejs_compat"];
        },
        // The reference origin runs beside the edge worker in `dev` and `preview`,
        // reached through the ORIGIN service binding of wrangler.toml.
        auxiliaryWorkers: emulateWechatPay
          ? [
              {
                configPath: originConfigPath,
                config: (origin) => ({
                  services: [...(origin.services ?? []), { binding: "WECHATPAY_SIMULATOR", service: "paydesk-wechatpay-simulator" }],
                  vars: { ...origin.vars, WECHATPAY_SIMULATOR_MERCHANT: "true" },
                }),
              },
              {
                configPath: "./workers/wechatpay-simulator/wrangler.toml",
                devOnly: true,
                config: (simulator) => ({ services: [...(simulator.services ?? []), { binding: "NOTIFY", service: "paydesk-origin" }] }),
              },
            ]
          : [{ configPath: originConfigPath }],
      }),
      reactRouter(),
      edgeReactDomServer("ssr"),
      zodOpenApiExtendsZodType("paydesk_origin"),
    ],
  };
});
