/**
 * The device tokens this browser keeps, one per handle it has signed in with by password
 * (docs/decisions/061-known-devices.md). Sent with the next sign-in or recovery at that
 * handle, it has the origin count the attempt against this browser alone, so a stranger's
 * failures at the handle do not lock the person out here. Signing out keeps them: that is
 * when they are needed. Forgetting this device on /account drops its token here too
 * (docs/decisions/069-known-devices-listed.md).
 */
import { type KeyValueStore, safeStorage } from "../storage/safe-storage";

const storageKey = "paydesk:known-devices";
const deviceTokenFormat = /^[A-Za-z0-9_-]{43}$/;
/** A shared computer may be signed in with a few handles; the least recent beyond these are dropped. */
const handlesKept = 5;

type Kept = [handle: string, deviceToken: string][];

/** What the store holds, least recent first; anything unreadable counts as nothing kept. */
function kept(store: KeyValueStore): Kept {
  try {
    const parsed: unknown = JSON.parse(store.get(storageKey) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is [string, string] =>
        Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string" && deviceTokenFormat.test(entry[1]),
    );
  } catch {
    return [];
  }
}

/** This browser's device token for `handle`, when it has one. */
export function deviceTokenFor(store: KeyValueStore, handle: string): string | undefined {
  return kept(store).find(([kept]) => kept === handle)?.[1];
}

/** Keeps the token a sign-in with the password answered for `handle`, as the most recent. */
export function keepDeviceToken(store: KeyValueStore, handle: string, deviceToken: string | undefined): void {
  if (deviceToken === undefined || !deviceTokenFormat.test(deviceToken)) return;
  const others = kept(store).filter(([kept]) => kept !== handle);
  store.set(storageKey, JSON.stringify([...others, [handle, deviceToken]].slice(-handlesKept)));
}

/** Drops the token kept for `handle`: the origin forgot that device, so it proves nothing now. */
export function dropDeviceToken(store: KeyValueStore, handle: string): void {
  const all = kept(store);
  const others = all.filter(([kept]) => kept !== handle);
  if (others.length !== all.length) store.set(storageKey, JSON.stringify(others));
}

const browserStore = safeStorage(() => window.localStorage);

/** This browser's device token for `handle`, to send with a sign-in or a recovery. */
export const thisDeviceTokenFor = (handle: string) => deviceTokenFor(browserStore, handle);

/** Keeps what a proof of the password answered for `handle` in this browser. */
export const keepThisDeviceToken = (handle: string, deviceToken: string | undefined) => keepDeviceToken(browserStore, handle, deviceToken);

/** Drops this browser's token for `handle`, once the person forgot this device. */
export const dropThisDeviceToken = (handle: string) => dropDeviceToken(browserStore, handle);
