import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import { takeToken, type BucketState } from '../../domain/token-bucket';
import { dashboardSettings } from './config';
import { PASSWORD_RETRY_AFTER_MS } from './password-hash-slots';

let bucket: BucketState | undefined;

/**
 * Takes one of the process's tokens for checking the password of a client no user of the e-mail
 * signed in from (known-clients.ts), or refuses 429 RATE_LIMIT: a token bucket of
 * DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND, that many at once. Guesses from addresses the
 * per-address limits never see twice (a botnet's) would otherwise keep the argon2 slots full, a
 * core busy; with it they take at most that many verifications a second, and a known device's
 * sign-in, which never comes here, finds a slot at once. In memory, per process: it guards that
 * process's CPU, so it counts the machine's seconds, as the slots do, not a request's clock. The
 * refusal names the same moment as a full slot's, for the same reason.
 */
export function spendUnknownClientSignIn(): void {
  const perSecond = dashboardSettings().unknownClientSignInsPerSecond;
  const nowMs = Date.now();
  const taken = takeToken(bucket, { ratePerSecond: perSecond, burst: perSecond }, nowMs);
  bucket = taken.bucket;
  if (!taken.decision.allowed) {
    throw new ApiError('RATE_LIMIT', 'Too many sign-ins from new devices right now. Try again in a moment.', {
      next_try_at: formatDateTime(new Date(nowMs + PASSWORD_RETRY_AFTER_MS)),
    });
  }
}
