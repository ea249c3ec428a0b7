import { ApiError } from '../../domain/errors';
import { normalizeEmail } from '../../domain/dashboard-email';
import type { Database } from '../../prisma/client';
import type { ClientInfo } from './actor';
import { userHoldingPassword } from './password-holder';
import { endSession, purgeExpiredSessions, startSession } from './sessions';
import { countSignInAttempt, forgetSignInAttempts } from './sign-in-throttle';
import { totpCodeAccepted } from './totp';

export interface SignInRequest {
  email: string;
  password: string;
  totpCode?: string;
  /** Which account, for an address that is a user of several. */
  accountId?: string;
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
  const user = await userHoldingPassword(db, email, request.password, request.accountId);
  if (!user) throw invalidCredentials();
  if (user.totpEnabled) {
    if (!request.totpCode) throw new ApiError('TOTP_REQUIRED', 'Enter the code from your authenticator app.');
    if (!(await totpCodeAccepted(db, user.id, request.totpCode, now))) throw invalidCredentials();
  }
  await forgetSignInAttempts(db, email, now);
  return db.$transaction(async (tx) => {
    if (request.previousToken) await endSession(tx, request.previousToken);
    await purgeExpiredSessions(tx, now);
    return { user, ...(await startSession(tx, user.id, now, client)) };
  });
}
