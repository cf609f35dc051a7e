import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The official Cloudflare template's plugins, without Tailwind and tsconfig paths (no
// extra libraries): the anchor is what the framework gives before any app code.
export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()],
});
