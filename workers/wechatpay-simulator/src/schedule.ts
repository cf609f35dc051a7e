/** What happens as simulator time passes, and when the simulator next has something to do. */
import type { SimulatorCore } from "./core";
import { type DeliveryReport, deliverDueNotifications } from "./notifications";
import { settleDueRefunds } from "./refunds";
import { expireOrders } from "./transactions";

/** Time-based changes: unpaid orders past time_expire close; PROCESSING refunds settle. */
export function tick(core: SimulatorCore): void {
  expireOrders(core);
  settleDueRefunds(core);
}

/** On the real clock; null when nothing waits. */
export function nextWakeUp(core: SimulatorCore): number | null {
  const { deliveries, refunds, clockOffsetMs } = core.state;
  const due = [
    ...deliveries.flatMap((delivery) => (delivery.nextAttemptAt === null ? [] : [delivery.nextAttemptAt])),
    ...Object.values(refunds).flatMap((refund) => (refund.status === "PROCESSING" ? [refund.settleAt] : [])),
  ];
  return due.length === 0 ? null : Math.min(...due) - clockOffsetMs;
}

/** Time's changes come first and every body is sealed before anything is sent, so a refund settling now notifies in this run. */
export async function deliverDue(core: SimulatorCore): Promise<DeliveryReport[]> {
  await core.settled();
  tick(core);
  await core.settled();
  return deliverDueNotifications(core);
}
