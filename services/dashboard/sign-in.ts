import { ApiError } from '../../domain/errors';
import { normalizeEmail } from '../../domain/dashboard-email';
import type { Database } from '../../prisma/client';
import type { ClientInfo } from './actor';
import { passwordMatches } from './passwords';
import { endSession, purgeExpiredSessions, startSession } from './sessions';
import { countSignInAttempt, forgetSignInAttempts } from './sign-in-throttle';
import { totpCodeAccepted } from './totp';
import { dashboardUserSelect } from './users';

export interface SignInRequest {
  email: string;
  password: string;
  totpCode?: string;
  /** The token of the session the browser already holds, if any: replaced, never reused. */
  previousToken?: string;
}

const invalidCredentials = () => new ApiError('INVALID_CREDENTIALS', 'The e-mail or password is wrong.');

/**
 * E-mail, password, then (when enrolled) a TOTP code: 401 INVALID_CREDENTIALS for any wrong
 * credential, the same for an unknown e-mail; 401 TOTP_REQUIRED when the password is right and
 * the code is missing; 429 once the e-mail or the address has had too many attempts. A success
 * starts a new session (rotation) and ends the one the browser presented.
 */
export async function signIn(db: Database, request: SignInRequest, now: Date, client: ClientInfo) {
  const email = normalizeEmail(request.email);
  await countSignInAttempt(db, { email, address: client.ip }, now);
  const found = await db.dashboardUser.findUnique({ where: { email }, select: { ...dashboardUserSelect, passwordHash: true } });
  if (!(await passwordMatches(found?.passwordHash, request.password)) || !found) throw invalidCredentials();
  if (found.totpEnabled) {
    if (!request.totpCode) throw new ApiError('TOTP_REQUIRED', 'Enter the code from your authenticator app.');
    if (!(await totpCodeAccepted(db, found.id, request.totpCode, now))) throw invalidCredentials();
  }
  const { passwordHash: _, ...user } = found;
  await forgetSignInAttempts(db, email, now);
  return db.$transaction(async (tx) => {
    if (request.previousToken) await endSession(tx, request.previousToken);
    await purgeExpiredSessions(tx, now);
    return { user, ...(await startSession(tx, user.id, now, client)) };
  });
}
