import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import { dashboardSettings } from './config';
import { passwordMatches } from './passwords';
import { countSignInAttempt, forgetSignInAttempts, type SignInBucket } from './sign-in-throttle';

/**
 * A signed-in user proves they are the person, not a borrowed or stolen session, before a change
 * that would lock them out or outlast the session (their password, their second factor).
 * 400 VALIDATION on `field` when the password is wrong. The checks are counted per user like
 * sign-in attempts (429 past the per-e-mail limit in the window), so a session cannot be used to
 * guess the password at the speed of argon2; a right password empties the count.
 */
export async function requireCurrentPassword(db: Database, userId: string, password: string, field: string, now: Date): Promise<void> {
  const buckets: SignInBucket[] = [[`password-check:${userId}`, dashboardSettings().signInAttemptsPerEmail]];
  await countSignInAttempt(db, buckets, now);
  const user = await db.dashboardUser.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await passwordMatches(user.passwordHash, password))) {
    const message = 'This is not your current password.';
    throw ApiError.validation({ [field]: { type: 'INVALID', message } }, message);
  }
  await forgetSignInAttempts(db, buckets);
}
