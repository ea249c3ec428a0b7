import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import type { Database } from '../../prisma/client';
import { dashboardSettings } from './config';

interface Counted {
  attempts: number;
  window_started_at: Date;
}

/**
 * Counts one sign-in attempt against each key in a fixed window and refuses (429) once a key is
 * over its limit. The count is taken before the password is checked, in one statement per key,
 * so parallel guesses cannot slip past the limit between a check and an increment. A successful
 * sign-in forgets its e-mail's count (forgetAttempts); every other attempt, a wrong TOTP code
 * included, keeps counting.
 */
export async function countSignInAttempt(db: Database, keys: { email: string; address?: string }, now: Date): Promise<void> {
  const settings = dashboardSettings();
  const limits: Array<[string, number]> = [[`email:${keys.email}`, settings.signInAttemptsPerEmail]];
  if (keys.address) limits.push([`address:${keys.address}`, settings.signInAttemptsPerAddress]);
  const windowStart = new Date(now.getTime() - settings.signInWindowMs);
  let retryAt: Date | undefined;
  for (const [key, limit] of limits) {
    const [counted] = await db.$queryRaw<Counted[]>`
      INSERT INTO dashboard_sign_in_throttles AS t (key, attempts, window_started_at) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN t.window_started_at <= ${windowStart} THEN 1 ELSE t.attempts + 1 END,
        window_started_at = CASE WHEN t.window_started_at <= ${windowStart} THEN ${now} ELSE t.window_started_at END
      RETURNING attempts, window_started_at`;
    if (counted!.attempts > limit) {
      const until = new Date(counted!.window_started_at.getTime() + settings.signInWindowMs);
      if (!retryAt || until > retryAt) retryAt = until;
    }
  }
  if (retryAt) {
    throw new ApiError('RATE_LIMIT', 'Too many sign-in attempts. Try again later.', { next_try_at: formatDateTime(retryAt) });
  }
}

/** Also drops every count whose window is over, so the table holds only current windows. */
export async function forgetSignInAttempts(db: Database, email: string, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - dashboardSettings().signInWindowMs);
  await db.dashboardSignInThrottle.deleteMany({ where: { OR: [{ key: `email:${email}` }, { windowStartedAt: { lte: windowStart } }] } });
}
