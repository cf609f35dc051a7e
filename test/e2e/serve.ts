/**
 * Serves the built app for the browser tests: both built workers in workerd (as
 * deployed), a fresh local D1 with the migrations and one seeded user, and a local
 * Sentry endpoint that the configured DSN points at.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepareLocalD1, wranglerBin, wranglerEnv } from "../support/local-d1.ts";
import { withOpenLimits } from "../support/open-limits.ts";
import { seedUserSql } from "../support/seed-user.ts";
import { startSentrySink } from "../support/sentry-sink.ts";
import { e2eAdminToken, e2ePort, seededOperators, seededUser, sentrySinkPort, shortLinkHost } from "./e2e-env.ts";

const state = mkdtempSync(join(tmpdir(), "paydesk-e2e-"));

await prepareLocalD1({ config: "workers/origin/wrangler.toml", persistTo: state }, [
  ...seedUserSql(seededUser),
  ...seededOperators.flatMap((operator) => [
    ...seedUserSql(operator),
    `INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES ('${operator.id}', '${operator.role}', 'cli', ${Date.now()})`,
  ]),
]);

// The operator's token for the journeys (issuing codes, answering tickets). `--var`
// reaches only the first worker, so the origin's test secret goes in its build's .dev.vars.
writeFileSync(join("dist", "paydesk_origin", ".dev.vars"), `ADMIN_TOKEN=${e2eAdminToken}\n`);

// WeChat Pay as in local emulation (vite.config.ts does the same for `npm run dev`): the
// simulator beside the origin, bound both ways; the origin takes the simulator's TEST-ONLY
// merchant. The built origin's own config (what deploys) stays without them.
const builtOrigin = JSON.parse(readFileSync(join("dist", "paydesk_origin", "wrangler.json"), "utf8")) as {
  services?: unknown[];
  vars?: Record<string, string>;
};
const originConfig = join("dist", "paydesk_origin", "wrangler.e2e.json");
writeFileSync(
  originConfig,
  JSON.stringify(
    withOpenLimits({
      ...builtOrigin,
      services: [...(builtOrigin.services ?? []), { binding: "WECHATPAY_SIMULATOR", service: "paydesk-wechatpay-simulator" }],
      // Passkeys need a domain, not an IP: the browser tests that use them visit http://localhost:<port>.
      vars: {
        ...builtOrigin.vars,
        WECHATPAY_SIMULATOR_MERCHANT: "true",
        WEBAUTHN_ORIGINS: `http://localhost:${e2ePort},http://127.0.0.1:${e2ePort}`,
      },
    }),
  ),
);
const simulatorConfig = join(state, "wechatpay-simulator.json");
writeFileSync(
  simulatorConfig,
  JSON.stringify({
    name: "paydesk-wechatpay-simulator",
    main: resolve("workers/wechatpay-simulator/src/index.ts"),
    compatibility_date: "2026-10-30",
    durable_objects: { bindings: [{ name: "SIMULATOR", class_name: "WechatPaySimulatorObject" }] },
    migrations: [{ tag: "v1", new_sqlite_classes: ["WechatPaySimulatorObject"] }],
    vars: { NOTIFY_AUTOMATICALLY: "true", H5_URL_BASE: "", REFUND_SETTLE_SECONDS: "3" },
    services: [{ binding: "NOTIFY", service: "paydesk-origin" }],
  }),
);

const sink = await startSentrySink(sentrySinkPort);
const server = spawn(
  wranglerBin,
  [
    "dev",
    "-c",
    "build/server/wrangler.json",
    "-c",
    originConfig,
    "-c",
    simulatorConfig,
    "--ip",
    "127.0.0.1",
    "--port",
    String(e2ePort),
    "--persist-to",
    state,
    "--var",
    `SHORT_LINK_HOSTS:${shortLinkHost}`,
    "--var",
    `SENTRY_DSN:${sink.dsn}`,
  ],
  { env: wranglerEnv, stdio: "inherit" },
);

function stop() {
  server.kill("SIGTERM");
  sink.server.close();
  rmSync(state, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  sink.server.close();
  rmSync(state, { recursive: true, force: true });
  process.exit(code ?? 1);
});
