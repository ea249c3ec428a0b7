import { setTimeout as sleep } from 'node:timers/promises';
import { clientAddressKey } from '../../domain/client-address-key';
import type { ApiError } from '../../domain/errors';
import { dashboardSettings } from '../../services/dashboard/config';
import { envelopeOf } from '../errors/envelope';

/** Whether a refusal was held (answer it) or found the bounds full (answer it and close the connection). */
export type Held = 'held' | 'over-bound';

/**
 * Whether a public dashboard route's error is a refusal the tarpit holds: every 4xx (a wrong
 * password or unknown e-mail, an invalid invitation or reset token, a 429), except TOTP_REQUIRED,
 * which says the password was right. A 5xx is the server's failure, not a failed attempt.
 */
export function isHeldRefusal(error: ApiError): boolean {
  const { status } = envelopeOf(error);
  return status >= 400 && status < 500 && error.code !== 'TOTP_REQUIRED';
}

/**
 * Holds a refusal of a public dashboard route until DASHBOARD_PUBLIC_REFUSAL_HOLD_MS after the
 * request arrived (`elapsedMs` ago) before it is answered: the classic failed-login delay, and a
 * tarpit. A client that waits for its answers, as every HTTP/1.1 client does, then guesses at most
 * (connections / hold) times a second however fast it could go, from one address or from as many
 * as it likes: answered at once, 64 connections of one address were refused about 1,000 times a
 * second, and 64 of a new address each about 110, and answering them kept the API's event loop
 * busy (docs/benchmarks.md, "Dashboard flood"). A success is never held. A held refusal costs a
 * timer and the request's memory; DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS (per address, IPv6
 * per /64) and DASHBOARD_PUBLIC_REFUSALS_HELD_AT_ONCE (the process) bound them. Past either, the
 * caller answers at once and closes the connection, so a client that opens more connections than
 * that pays a new one for every try.
 */
export function refusalTarpit(): (ip: string | undefined, elapsedMs: number) => Promise<Held> {
  const heldPerAddress = new Map<string, number>();
  let heldInAll = 0;
  return async (ip, elapsedMs) => {
    const settings = dashboardSettings();
    const holdMs = settings.publicRefusalHoldMs - elapsedMs;
    if (holdMs <= 0) return 'held';
    const address = clientAddressKey(ip ?? '');
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
