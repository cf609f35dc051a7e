import { defineConfig } from "@playwright/test";
import { devBaseUrl, devPort, e2eBaseUrl, e2ePort } from "./test/e2e/e2e-env.ts";
import { chromiumFlags, chromiumPath } from "./test/support/chromium.ts";

export default defineConfig({
  testDir: "./test/e2e",
  testMatch: "**/*.test.ts",
  outputDir: "./test-results/playwright",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL: e2eBaseUrl,
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        ...chromiumFlags,
        // A configured link-shortener host, resolved to this machine.
        "--host-resolver-rules=MAP s.paydesk.test 127.0.0.1",
      ],
    },
  },
  webServer: [
    {
      command: "node test/e2e/serve.ts",
      url: `${e2eBaseUrl}/help`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { E2E_PORT: String(e2ePort) },
    },
    {
      // `npm run dev` exactly as the README tells a newcomer (test/e2e/dev.test.ts).
      command: `npm run dev -- --host 127.0.0.1 --port ${devPort} --strictPort`,
      url: `${devBaseUrl}/help`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    },
  ],
});
