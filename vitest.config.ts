import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { build } from "esbuild";
import { defineConfig } from "vitest/config";
import { startSentrySink } from "./test/support/sentry-sink.ts";
import { doors } from "./workers/origin/src/limits/doors.ts";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

// Error reports from the workers under test go here, never off the machine.
const sentrySink = await startSentrySink();
sentrySink.server.unref();

const compatibilityDate = "2026-10-30";

// Tests in workerd on a two-core CI machine: a module a test imports for the first time (the
// WebAuthn library, say) is transformed by Vite on demand, which once took over vitest's
// default 5 s while the other projects ran. A real hang still fails, at 30 s.
const workerdTimeouts = { testTimeout: 30_000, hookTimeout: 30_000 };

// The origin's tests send far more than a person would, from few users, within seconds: each
// door's burst binding is wide open here, and limits.test.ts swaps in LIMIT_TEST_TIGHT (3 a
// minute) to see a door refuse. The daily limits stay as configured (the counts reset per test).
const openBurstLimits = Object.fromEntries(
  Object.values(doors).map(({ burst }, index) => [
    burst,
    { namespace_id: String(1001 + index), simple: { limit: 1_000_000, period: 60 as const } },
  ]),
);

// The WeChat Pay simulator as an auxiliary worker of the origin's tests: miniflare runs
// JavaScript only, so it is bundled first (esbuild comes with wrangler).
const simulatorScript = "./node_modules/.cache/paydesk/wechatpay-simulator.js";
await build({
  entryPoints: ["./workers/wechatpay-simulator/src/index.ts"],
  outfile: simulatorScript,
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  external: ["cloudflare:*"],
  logLevel: "warning",
});
const notifySinkWorker = {
  name: "wechatpay-notify-sink",
  modules: true,
  scriptPath: "./workers/wechatpay-simulator/test/notify-sink.js",
  compatibilityDate,
};

function builtEdgeWorker(name: string, include: string, bindings: Record<string, string> = {}) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./build/server/wrangler.json" },
        miniflare: {
          compatibilityDate,
          bindings: { SENTRY_DSN: sentrySink.dsn, SENTRY_SINK_URL: `http://127.0.0.1:${sentrySink.port}`, ...bindings },
          workers: [{ name: "paydesk-origin", modules: true, scriptPath: "./test/support/fake-origin.js", compatibilityDate }],
        },
      }),
    ],
    test: { name, include: [include], setupFiles: ["./test/support/react-first.ts"], ...workerdTimeouts },
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: [
            "app/**/*.test.ts",
            "contract/**/*.test.ts",
            "scripts/**/*.test.ts",
            "bench/**/*.test.ts",
            "test/install/**/*.test.ts",
            "test/docs/**/*.test.ts",
            "test/lint/**/*.test.ts",
            "test/server-build/**/*.test.ts",
            "test/client-build/**/*.test.ts",
            "test/contract/published-document.test.ts",
            "test/migrations/**/*.test.ts",
          ],
        },
      },
      // The published contract against the built origin in workerd (wrangler dev), from Node.
      {
        test: {
          name: "contract",
          environment: "node",
          include: ["test/contract/contract.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // The built edge worker (`npm test` builds first), as `wrangler deploy` ships it.
      builtEdgeWorker("edge", "test/edge/**/*.test.ts"),
      // The same build, misconfigured: a loader that throws must reach Sentry.
      builtEdgeWorker("edge-misconfigured", "test/edge-misconfigured/**/*.test.ts", {
        CONTACT_EMAIL: "not-an-email-address",
        MONEY_LIMITS: '{"transfer":{"max":99999999}}',
        LOCKS: '{"signIn":{"failures":1}}',
        TIME_LIMITS: '{"claim":{"submitHours":36}}',
        TASK_LIMITS: '{"slots":{"max":5000}}',
        TEXT_LIMITS: '{"transfer":{"note":1000}}',
      }),
      // A deploy with money limits, locks, time, task and text limits of its own (docs/decisions/053-deploy-limits.md, 054, 055, 057, 058, 059).
      builtEdgeWorker("edge-tight-limits", "test/edge-tight-limits/**/*.test.ts", {
        MONEY_LIMITS: '{"transfer":{"max":2000,"perDay":5000},"recharge":{"min":1000},"taskReward":{"max":500}}',
        LOCKS: '{"signIn":{"failures":5,"lockMinutes":60},"redeem":{"windowMinutes":30}}',
        TIME_LIMITS: '{"order":{"payMinutes":15},"claim":{"submitHours":12,"autoApproveHours":48},"session":{"idleDays":7}}',
        TASK_LIMITS: '{"slots":{"max":50},"deadline":{"minHours":24,"maxDays":7}}',
        TEXT_LIMITS: '{"transfer":{"note":60},"support":{"message":1000}}',
      }),
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./workers/origin/wrangler.toml" },
            miniflare: {
              compatibilityDate,
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations("./workers/origin/migrations"),
                ADMIN_TOKEN: "test-operator-token-0123456789abcdefghij",
                // Not SENTRY_DSN: only error-reporting.test.ts reports, by passing it as one.
                TEST_SENTRY_DSN: sentrySink.dsn,
                SENTRY_SINK_URL: `http://127.0.0.1:${sentrySink.port}`,
              },
              ratelimits: { ...openBurstLimits, LIMIT_TEST_TIGHT: { namespace_id: "1999", simple: { limit: 3, period: 60 } } },
              // WeChat Pay is reached through the simulator (the tests configure the merchant
              // per app); its notifications are recorded by the sink and replayed by the tests.
              serviceBindings: { WECHATPAY_SIMULATOR: "paydesk-wechatpay-simulator", WECHATPAY_NOTIFY_SINK: "wechatpay-notify-sink" },
              workers: [
                {
                  name: "paydesk-wechatpay-simulator",
                  modules: true,
                  scriptPath: simulatorScript,
                  compatibilityDate,
                  durableObjects: { SIMULATOR: { className: "WechatPaySimulatorObject", useSQLite: true } },
                  bindings: { NOTIFY_AUTOMATICALLY: "false", H5_URL_BASE: "", REFUND_SETTLE_SECONDS: "60" },
                  serviceBindings: { NOTIFY: "wechatpay-notify-sink" },
                },
                notifySinkWorker,
              ],
            },
          }),
        ],
        test: {
          name: "origin",
          include: ["workers/origin/**/*.test.ts"],
          setupFiles: ["./workers/origin/test/apply-migrations.ts"],
          ...workerdTimeouts,
        },
      },
      // The WeChat Pay simulator in its own worker, with the origin's client talking to it;
      // notifications go to a recording merchant stand-in, and tests deliver them by hand.
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./workers/wechatpay-simulator/wrangler.toml" },
            miniflare: {
              compatibilityDate,
              // Vitest's own modules need node:* inside workerd; the simulator itself does not.
              compatibilityFlags: ["nodejs_compat"],
              bindings: { NOTIFY_AUTOMATICALLY: "false" },
              serviceBindings: { NOTIFY: "wechatpay-notify-sink" },
              workers: [notifySinkWorker],
            },
          }),
        ],
        test: {
          name: "wechatpay-simulator",
          include: ["workers/wechatpay-simulator/**/*.test.ts"],
          // One file at a time: the files share the simulator's one Durable Object, whose clock
          // some of them move (a file moving it 6 minutes on let another's "5 minutes off"
          // request through, 2026-11-27).
          fileParallelism: false,
          ...workerdTimeouts,
        },
      },
    ],
  },
});
