import { ApiError } from '../../domain/errors';
import { normalizeEmail } from '../../domain/dashboard-email';
import type { Database } from '../../prisma/client';
import type { ClientInfo } from './actor';
import { type KnownClient, knownClientOf, rememberClient } from './known-clients';
import { userHoldingPassword } from './password-holder';
import { endSession, purgeExpiredSessions, startSession } from './sessions';
import { countSignInAttempt, forgetSignInAttempts, knownClientBuckets, unknownClientBuckets } from './sign-in-throttle';
import { totpCodeAccepted } from './totp';
import { spendUnknownClientSignIn } from './unknown-client-sign-ins';

export interface SignInRequest {
  email: string;
  password: string;
  totpCode?: string;
  /** Which account, for an address that is a user of several. */
  accountId?: string;
  /** The token of the session the browser already holds, if any: replaced, never reused. */
  previousToken?: string;
  /** The browser's `bp_device` token, if it has one (known-clients.ts). */
  deviceToken?: string;
}

const invalidCredentials = () => new ApiError('INVALID_CREDENTIALS', 'The e-mail or password is wrong.');

/**
 * E-mail, password, then (when enrolled) a TOTP code: 401 INVALID_CREDENTIALS for any wrong
 * credential, the same for an unknown e-mail; 401 TOTP_REQUIRED when the password is right and
 * the code is missing; 429 once the client's counts are over their limits (sign-in-throttle.ts:
 * a device or address a user of the e-mail signed in from is counted on its own for that user,
 * any other client per address and per e-mail; an unknown client also needs one of the process's
 * tokens for unknown clients' sign-ins, unknown-client-sign-ins.ts, and its password check waits
 * behind the others'). A success starts a new session (rotation), ends the one the browser
 * presented, and makes the device and the address known, with the device token for its cookie.
 */
export async function signIn(db: Database, request: SignInRequest, now: Date, client: ClientInfo) {
  const email = normalizeEmail(request.email);
  const presented = { deviceToken: request.deviceToken, ip: client.ip };
  const known = await knownClientOf(db, email, presented, now);
  const user = (known && (await signInAsKnown(db, request, email, known, now))) || (await signInAsUnknown(db, request, email, known, now, client));
  if (user.totpEnabled) {
    if (!request.totpCode) throw new ApiError('TOTP_REQUIRED', 'Enter the code from your authenticator app.');
    if (!(await totpCodeAccepted(db, user.id, request.totpCode, now))) throw invalidCredentials();
  }
  return db.$transaction(async (tx) => {
    if (request.previousToken) await endSession(tx, request.previousToken);
    await purgeExpiredSessions(tx, now);
    const deviceToken = await rememberClient(tx, user.id, presented, known?.clientKey, now);
    return { user, deviceToken, ...(await startSession(tx, user.id, now, client)) };
  });
}

/**
 * The password checked against the users the client is known for, counted on the client's own
 * count, which its success empties. null when it is none of theirs but the e-mail has other users:
 * for those the client is as unknown as any other.
 */
async function signInAsKnown(db: Database, request: SignInRequest, email: string, known: KnownClient, now: Date) {
  const buckets = knownClientBuckets(email, known.clientKey);
  await countSignInAttempt(db, buckets, now);
  const user = await userHoldingPassword(db, email, request.password, { accountId: request.accountId, userIds: known.userIds }, 'normal');
  if (user) {
    await forgetSignInAttempts(db, buckets);
    return user;
  }
  const others = await db.dashboardUser.count({ where: { email, id: { notIn: known.userIds }, ...(request.accountId ? { accountId: request.accountId } : {}) } });
  if (others === 0) throw invalidCredentials();
  return null;
}

/**
 * A client none of the users it may sign in as signed in from: one of the process's tokens for
 * unknown clients, counted per address and per e-mail. A success forgets neither count: they are
 * shared with everyone else trying the e-mail (its other accounts' users too), and this client is
 * known from now on, counted on its own.
 */
async function signInAsUnknown(db: Database, request: SignInRequest, email: string, known: KnownClient | undefined, now: Date, client: ClientInfo) {
  // Before any count: a guess refused by the budget checks no password, so it costs no row.
  spendUnknownClientSignIn();
  await countSignInAttempt(db, unknownClientBuckets(email, client.ip), now);
  const user = await userHoldingPassword(db, email, request.password, { accountId: request.accountId, exceptUserIds: known?.userIds }, 'low');
  if (!user) throw invalidCredentials();
  return user;
}
