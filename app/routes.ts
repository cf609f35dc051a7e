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
  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
