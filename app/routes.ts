import { index, route, type RouteConfig } from "@react-router/dev/routes";

// Route ids are the screen names of docs/screens.md: they are part of the
// /__serverLoader contract and of error reports.
export default [
  index("routes/home.tsx", { id: "home" }),
  route("login", "routes/login.tsx", { id: "login" }),
  route("task", "routes/task.tsx", { id: "task" }),
  route("check", "routes/check.tsx", { id: "check" }),
  route("pay", "routes/pay.tsx", { id: "pay" }),
  route("wechat_pay", "routes/wechat-pay.tsx", { id: "wechat_pay" }),
  route("pay_success", "routes/pay-success.tsx", { id: "pay_success" }),
  // One screen under two addresses (docs/screens.md).
  route("code", "routes/recharge.tsx", { id: "code" }),
  route("recharge", "routes/recharge.tsx", { id: "recharge" }),
  route("order", "routes/order.tsx", { id: "order" }),
  route("transfer", "routes/transfer.tsx", { id: "transfer" }),
  route("help", "routes/help.tsx", { id: "help" }),
  route("tos", "routes/tos.tsx", { id: "tos" }),
  route("contact", "routes/contact.tsx", { id: "contact" }),
  route("support", "routes/support.tsx", { id: "support" }),
  route("account", "routes/account.tsx", { id: "account" }),
  route("recover", "routes/recover.tsx", { id: "recover" }),
  route("wallet", "routes/wallet.tsx", { id: "wallet" }),
  route("wallet/receipts/:kind/:id", "routes/receipt.tsx", { id: "receipt" }),
  // The back office (docs/decisions/012-operators-and-audit.md): its own layout and chunks.
  route("ops", "routes/ops/ops-layout.tsx", { id: "ops" }, [
    index("routes/ops/ops-index.tsx", { id: "ops_index" }),
    route("people", "routes/ops/ops-people.tsx", { id: "ops_people" }),
    route("people/:id", "routes/ops/ops-person.tsx", { id: "ops_person" }),
    route("orders/:id", "routes/ops/ops-order.tsx", { id: "ops_order" }),
    route("refunds", "routes/ops/ops-refunds.tsx", { id: "ops_refunds" }),
    route("tickets", "routes/ops/ops-tickets.tsx", { id: "ops_tickets" }),
    route("tickets/:id", "routes/ops/ops-ticket.tsx", { id: "ops_ticket" }),
    route("codes", "routes/ops/ops-codes.tsx", { id: "ops_codes" }),
    route("audit", "routes/ops/ops-audit.tsx", { id: "ops_audit" }),
    route("ledger", "routes/ops/ops-ledger.tsx", { id: "ops_ledger" }),
    route("orders", "routes/ops/ops-orders.tsx", { id: "ops_orders" }),
    route("operators", "routes/ops/ops-operators.tsx", { id: "ops_operators" }),
  ]),
  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
