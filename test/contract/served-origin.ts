/**
 * The built origin served by `wrangler dev` in workerd, as deployed, for the contract test:
 * a private copy of the build (its config with every limit open, test/support/open-limits.ts,
 * and its own secrets), a fresh local D1 with every migration, and signed-in users.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prepareLocalD1 } from "../support/local-d1.ts";
import { withOpenLimits } from "../support/open-limits.ts";
import { seedUserSql } from "../support/seed-user.ts";
import { startWranglerDev } from "../support/wrangler-dev.ts";

export type ServedOrigin = {
  url: string;
  /** Headers that make a request the edge's (docs/decisions/011-origin-trusts-the-edge.md). */
  edge: Record<string, string>;
  adminToken: string;
  /** Bearer tokens of signed-in users, each with ¥1,000.00 in the wallet. */
  userTokens: string[];
  /** The bearer token of a signed-in admin operator. */
  operatorToken: string;
  stop(): Promise<void>;
};

const root = path.resolve(import.meta.dirname, "../..");

export async function serveOrigin(): Promise<ServedOrigin> {
  const dir = mkdtempSync(path.join(tmpdir(), "paydesk-contract-"));
  const build = path.join(dir, "dist/paydesk_origin");
  mkdirSync(build, { recursive: true });
  cpSync(path.join(root, "dist/paydesk_origin/index.js"), path.join(build, "index.js"));
  // The chunks it imports (the runtime helpers, Sentry's SDK and SimpleWebAuthn on demand), as a deploy uploads them.
  cpSync(path.join(root, "dist/paydesk_origin/assets"), path.join(build, "assets"), { recursive: true });
  cpSync(path.join(root, "workers/origin/migrations"), path.join(dir, "workers/origin/migrations"), { recursive: true });
  const config = path.join(build, "wrangler.json");
  const built = JSON.parse(readFileSync(path.join(root, "dist/paydesk_origin/wrangler.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(config, JSON.stringify(withOpenLimits(built)));

  const adminToken = randomBytes(32).toString("base64url");
  const edgeSecret = randomBytes(32).toString("base64url");
  writeFileSync(path.join(build, ".dev.vars"), `ADMIN_TOKEN=${adminToken}\nEDGE_SECRET=${edgeSecret}\n`, { mode: 0o600 });

  const users = Array.from({ length: 3 }, (_, index) => ({
    id: `usr_contract_${index}`,
    handle: `contract_${index}`,
    displayName: `Contract ${index}`,
    token: randomBytes(32).toString("base64url"),
    available: 100_000,
  }));
  const persistTo = path.join(dir, "state");
  const [admin] = users.splice(2, 1);
  if (!admin) throw new Error("no operator to seed");
  const operatorSql = `INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES ('${admin.id}', 'admin', 'cli', ${Date.now()})`;
  await prepareLocalD1({ config, persistTo }, [...[...users, admin].flatMap((user) => seedUserSql(user)), operatorSql]);
  const server = await startWranglerDev({ configs: [config], persistTo, registryDir: path.join(dir, "registry") });
  try {
    await server.ready;
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: server.url,
    edge: { "X-Edge-Secret": edgeSecret },
    adminToken,
    userTokens: users.map((user) => user.token),
    operatorToken: admin.token,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
