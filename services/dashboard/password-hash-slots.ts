import { Semaphore, withTimeout } from 'async-mutex';
import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import { dashboardSettings } from './config';

/**
 * `low`: a sign-in from a client no user signed in from (known-clients.ts), which waits behind
 * every other caller: a flood of guesses never delays a known device's sign-in, a password change
 * or an accepted invitation. Among callers of one priority, first come, first served.
 */
export type HashPriority = 'normal' | 'low';

/** Runs one argon2 hash or verification in a slot, or refuses once it has waited too long. */
export type PasswordHashSlots = <T>(work: () => Promise<T>, priority?: HashPriority) => Promise<T>;

/**
 * When a refused caller may try again. A moment later a slot is likely free again (the slots turn
 * over every few tens of milliseconds); not sooner, or every refused caller comes back at once.
 */
export const PASSWORD_RETRY_AFTER_MS = 1000;

const SEMAPHORE_PRIORITY: Record<HashPriority, number> = { normal: 1, low: 0 };

/**
 * At most `atOnce` argon2 calls in flight; a caller waits up to `waitMs` for a slot, then is
 * refused 429 RATE_LIMIT. Each argon2id call takes 19 MiB and tens of milliseconds of a core, and
 * anyone can ask for one (sign-in, accept-invitation): unbounded, a flood of them starves every
 * other request of CPU. Waiting callers are served by priority, then first come, first served.
 * async-mutex's semaphore (with its priorities) and timeout rather than a hand-written queue: a
 * caller that timed out never runs its work (its turn, when it comes, is handed straight on).
 */
export function passwordHashSlots(limits: { atOnce: number; waitMs: number }): PasswordHashSlots {
  const timedOut = new Error('no password hash slot within the wait');
  const semaphore = withTimeout(new Semaphore(limits.atOnce), limits.waitMs, timedOut);
  return async (work, priority = 'normal') => {
    let release: () => void;
    try {
      [, release] = await semaphore.acquire(1, SEMAPHORE_PRIORITY[priority]);
    } catch (error) {
      if (error !== timedOut) throw error;
      throw new ApiError('RATE_LIMIT', 'The server is busy checking passwords. Try again in a moment.', {
        next_try_at: formatDateTime(new Date(Date.now() + PASSWORD_RETRY_AFTER_MS)),
      });
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
}

let processSlots: PasswordHashSlots | undefined;

/** This process's slots, sized from the settings when first used (docs/dashboard.md, "Security"). */
export function processPasswordHashSlots(): PasswordHashSlots {
  if (!processSlots) {
    const settings = dashboardSettings();
    processSlots = passwordHashSlots({
      atOnce: settings.passwordHashesAtOnce,
      waitMs: settings.passwordHashWaitMs,
    });
  }
  return processSlots;
}
