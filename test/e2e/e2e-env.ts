/** Where the browser tests find the app, its Sentry sink and the seeded user. */
export const e2ePort = Number(process.env.E2E_PORT ?? 8788);
export const e2eBaseUrl = `http://127.0.0.1:${e2ePort}`;
export const devPort = Number(process.env.DEV_PORT ?? 5179);
export const devBaseUrl = `http://127.0.0.1:${devPort}`;
export const sentrySinkPort = Number(process.env.SENTRY_SINK_PORT ?? 8799);
export const sentrySinkUrl = `http://127.0.0.1:${sentrySinkPort}`;
export const shortLinkHost = "s.paydesk.test";

export const seededUser = {
  token: "e2e_token_0123456789abcdefghijk",
  id: "u_e2e_li_wei",
  handle: "li_wei",
  displayName: "Li Wei",
  available: 12345,
  held: 0,
};

/** Operators of the browser tests' origin, signed in (their tokens are test-only): an admin, a finance checker, a support agent. */
export const seededOperators = [
  { token: "e2e_ops_admin_token_0123456789abcdef", id: "u_e2e_ops_admin", handle: "ops_admin", displayName: "Ops Admin", role: "admin" },
  {
    token: "e2e_ops_finance_token_0123456789abcd",
    id: "u_e2e_ops_finance",
    handle: "ops_finance",
    displayName: "Ops Finance",
    role: "finance",
  },
  {
    token: "e2e_ops_support_token_0123456789abcd",
    id: "u_e2e_ops_support",
    handle: "ops_support",
    displayName: "Ops Support",
    role: "support",
  },
  // A second admin: a recovery link one admin asks for, another approves (docs/decisions/062-recovery-links-need-a-second-admin.md).
  {
    token: "e2e_ops_admin_two_token_0123456789ab",
    id: "u_e2e_ops_admin_two",
    handle: "ops_admin_two",
    displayName: "Ops Admin Two",
    role: "admin",
  },
] as const;

/** The operator token of the browser tests' origin only (never a real secret). */
export const e2eAdminToken = "e2e-operator-token-0123456789abcdefghij";
