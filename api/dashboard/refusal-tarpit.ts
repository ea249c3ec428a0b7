import { setTimeout as sleep } from 'node:timers/promises';
import { clientAddressKey } from '../../domain/client-address-key';
import { dashboardSettings } from '../../services/dashboard/config';

/** Whether a refusal was held (answer it) or found the bounds full (answer it and close the connection). */
export type Held = 'held' | 'over-bound';

/**
 * Holds a refusal of a public dashboard route for `holdMs` (a tarpit) before it is answered. A
 * client that waits for its answers, as every HTTP/1.1 client does, then sends at most
 * (connections / hold) requests a second however fast it could go: without the hold, 64
 * connections of one address were refused about 1,000 times a second, and answering them alone
 * kept the API's event loop busy (docs/benchmarks.md, "Dashboard flood"). A held refusal costs a
 * timer and the request's memory; DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS (per address, IPv6
 * per /64) and DASHBOARD_PUBLIC_REFUSALS_HELD_AT_ONCE (the process) bound them. Past either, the
 * caller answers at once and closes the connection, so a client that opens more connections than
 * that pays a new one for every try.
 */
export function refusalTarpit(): (ip: string | undefined, holdMs: number) => Promise<Held> {
  const heldPerAddress = new Map<string, number>();
  let heldInAll = 0;
  return async (ip, holdMs) => {
    const settings = dashboardSettings();
    const address = clientAddressKey(ip ?? '');
    if (holdMs <= 0) return 'held';
    const heldHere = heldPerAddress.get(address) ?? 0;
    if (heldHere >= settings.publicRefusalsHeldPerAddress || heldInAll >= settings.publicRefusalsHeldAtOnce) return 'over-bound';
    heldPerAddress.set(address, heldHere + 1);
    heldInAll++;
    try {
      await sleep(holdMs);
    } finally {
      heldInAll--;
      const left = heldPerAddress.get(address)! - 1;
      if (left === 0) heldPerAddress.delete(address);
      else heldPerAddress.set(address, left);
    }
    return 'held';
  };
}

/**
 * How long a refusal that names `nextTryAt` is still held: until its retry time, at most
 * DASHBOARD_PUBLIC_REFUSAL_HOLD_MS after the request arrived (`arrivedAt`, on the clock that set
 * `nextTryAt`), less the `elapsedMs` it has already taken (a sign-in that waited for an argon2
 * slot is held no longer).
 */
export function refusalHoldMs(nextTryAt: string, arrivedAt: Date, elapsedMs: number): number {
  const untilRetry = Date.parse(nextTryAt) - arrivedAt.getTime();
  return Math.max(0, Math.min(untilRetry, dashboardSettings().publicRefusalHoldMs) - elapsedMs);
}
