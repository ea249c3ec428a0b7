import { clientAddressKey } from '../../domain/client-address-key';
import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import type { Database } from '../../prisma/client';
import { deleteInBatches } from '../batched-delete';
import { dashboardSettings } from './config';

interface Counted {
  attempts: number;
  window_started_at: Date;
}

/** A count and its limit; a sign-in is counted against each of its buckets in order. */
export type SignInBucket = readonly [key: string, limit: number];

/**
 * A client the user never signed in from: its address first (IPv6 per /64), then the e-mail.
 * The e-mail's limit is what stops a guesser spread over many addresses.
 */
export function unknownClientBuckets(email: string, ip: string | undefined): SignInBucket[] {
  const settings = dashboardSettings();
  const byEmail: SignInBucket = [`email:${email}`, settings.signInAttemptsPerEmail];
  return ip ? [[`address:${clientAddressKey(ip)}`, settings.signInAttemptsPerAddress], byEmail] : [byEmail];
}

/**
 * A device or address the user signed in from (known-clients.ts): counted on its own, so other
 * clients' failures, which fill the e-mail's and their addresses' counts, never refuse it.
 */
export function knownClientBuckets(email: string, clientKey: string): SignInBucket[] {
  return [[`known:${email}:${clientKey}`, dashboardSettings().signInAttemptsPerEmail]];
}

/**
 * Counts one sign-in attempt against each bucket in a fixed window and refuses (429) at the first
 * that is over its limit, before the password is checked and without touching the buckets after
 * it: an address over its limit adds no count, so no row, for the e-mails it goes on trying. One
 * statement per bucket, so parallel guesses cannot slip past a limit between a check and an
 * increment. A successful sign-in from a known client forgets that client's own count
 * (forgetSignInAttempts), never the shared ones of an address or an e-mail; every other attempt,
 * a wrong TOTP code included, keeps counting.
 */
export async function countSignInAttempt(db: Database, buckets: SignInBucket[], now: Date): Promise<void> {
  const settings = dashboardSettings();
  const windowStart = new Date(now.getTime() - settings.signInWindowMs);
  for (const [key, limit] of buckets) {
    const [counted] = await db.$queryRaw<Counted[]>`
      INSERT INTO dashboard_sign_in_throttles AS t (key, attempts, window_started_at) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN t.window_started_at <= ${windowStart} THEN 1 ELSE t.attempts + 1 END,
        window_started_at = CASE WHEN t.window_started_at <= ${windowStart} THEN ${now} ELSE t.window_started_at END
      RETURNING attempts, window_started_at`;
    if (counted!.attempts > limit) {
      const retryAt = new Date(counted!.window_started_at.getTime() + settings.signInWindowMs);
      throw new ApiError('RATE_LIMIT', 'Too many sign-in attempts. Try again later.', { next_try_at: formatDateTime(retryAt) });
    }
  }
}

/** The last bucket is the caller's own (a known client's, a user's current-password count): a success empties it. */
export async function forgetSignInAttempts(db: Database, buckets: SignInBucket[]): Promise<void> {
  const own = buckets.at(-1);
  if (own) await db.dashboardSignInThrottle.deleteMany({ where: { key: own[0] } });
}

/** Counts whose window is over, in batches (maintenance): they would start afresh anyway. */
export function purgeExpiredSignInCounts(deps: { db: Database; now: () => Date }, progress: (done: { deleted: number }) => void): Promise<{ deleted: number }> {
  const windowStart = new Date(deps.now().getTime() - dashboardSettings().signInWindowMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM dashboard_sign_in_throttles
      WHERE key IN (SELECT key FROM dashboard_sign_in_throttles WHERE window_started_at <= ${windowStart} LIMIT ${limit})`,
    progress,
  );
}
