import type { Config } from "@react-router/dev/config";

// As the official Cloudflare template has it: server rendering, nothing else.
export default {
  ssr: true,
} satisfies Config;
