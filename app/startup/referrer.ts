import type { KeyValueStore } from "../storage/safe-storage";

export type Referrers = {
  /** Where this visit came from ("" for a direct visit). */
  visit: string;
  /** Where this device's first visit came from; sent along when an order is created. */
  firstTouch: string;
};

const visitKey = "paydesk:referrer:visit";
const firstTouchKey = "paydesk:referrer:first-touch";

/**
 * Records the referrer. A visit is a browser tab session, so reloads and in-app
 * navigations keep the referrer that started it. The first touch is kept forever,
 * a direct first visit included (stored as "").
 */
export function rememberReferrer(referrer: string, visitStore: KeyValueStore, deviceStore: KeyValueStore): Referrers {
  const visit = visitStore.get(visitKey) ?? referrer;
  visitStore.set(visitKey, visit);
  const firstTouch = deviceStore.get(firstTouchKey) ?? referrer;
  deviceStore.set(firstTouchKey, firstTouch);
  return { visit, firstTouch };
}
