import { Secret, TOTP } from 'otpauth';
import { ApiError } from '../../domain/errors';
import { openSecret, sealSecret } from '../../domain/secret-box';
import type { Database } from '../../prisma/client';
import { secretsKey } from '../secrets/secrets-key';
import type { DashboardActor } from './actor';
import { requireCurrentPassword } from './current-password';

/** Bound to the user, so a sealed secret copied to another user's row does not open. */
const sealingPurpose = (userId: string) => `dashboard-user-totp:${userId}`;
const ISSUER = 'Billing platform';
const PERIOD_SECONDS = 30;

function totpOf(email: string, base32: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

/**
 * The step a code is valid for, or null. One step either side is accepted for clock drift;
 * a code is accepted once: the step must be later than the last one used (the conditional
 * update makes that hold between parallel requests too).
 */
async function acceptCode(db: Database, user: { id: string; email: string; sealed: Uint8Array }, code: string, now: Date): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const totp = totpOf(user.email, openSecret(secretsKey(), sealingPurpose(user.id), user.sealed));
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return false;
  const step = BigInt(totp.counter({ timestamp: now.getTime() }) + delta);
  const claimed = await db.$executeRaw`
    UPDATE dashboard_users SET totp_last_step = ${step}
    WHERE id = ${user.id} AND (totp_last_step IS NULL OR totp_last_step < ${step})`;
  return claimed === 1;
}

/** Sign-in's second factor: true when the user has TOTP on and `code` is a fresh valid code. */
export async function totpCodeAccepted(db: Database, userId: string, code: string, now: Date): Promise<boolean> {
  const user = await db.dashboardUser.findUnique({ where: { id: userId }, select: { id: true, email: true, totpSecretSealed: true } });
  if (!user?.totpSecretSealed) return false;
  return acceptCode(db, { id: user.id, email: user.email, sealed: user.totpSecretSealed }, code, now);
}

/** A new secret, sealed and stored but not yet in force; confirm turns it on. Needs the password. */
export async function enrollTotp(db: Database, actor: DashboardActor, password: string, now: Date) {
  await requireCurrentPassword(db, actor.userId, password, 'password', now);
  const user = await db.dashboardUser.findUniqueOrThrow({ where: { id: actor.userId }, select: { totpEnabled: true } });
  if (user.totpEnabled) throw new ApiError('TOTP_ALREADY_ENABLED', 'TOTP is already on; disable it first to enrol a new authenticator.');
  const secret = new Secret({ size: 20 }).base32;
  await db.dashboardUser.update({
    where: { id: actor.userId },
    data: { totpSecretSealed: new Uint8Array(sealSecret(secretsKey(), sealingPurpose(actor.userId), secret)), totpLastStep: null, updatedAt: now },
  });
  return { secret, otpauth_url: totpOf(actor.email, secret).toString() };
}

async function requireCode(db: Database, actor: DashboardActor, code: string, now: Date, enabled: boolean) {
  const user = await db.dashboardUser.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { id: true, email: true, totpEnabled: true, totpSecretSealed: true },
  });
  if (enabled && !user.totpEnabled) throw new ApiError('TOTP_NOT_ENABLED', 'TOTP is not on for this user.');
  if (!enabled && user.totpEnabled) throw new ApiError('TOTP_ALREADY_ENABLED', 'TOTP is already on.');
  if (!user.totpSecretSealed) throw new ApiError('TOTP_NOT_ENROLLED', 'Enrol first (totp/enroll), then confirm with a code from the authenticator.');
  if (!(await acceptCode(db, { id: user.id, email: user.email, sealed: user.totpSecretSealed }, code, now))) {
    throw ApiError.validation({ code: { type: 'INVALID', message: 'Not a valid code for this authenticator right now.' } });
  }
}

export async function confirmTotp(db: Database, actor: DashboardActor, code: string, now: Date): Promise<void> {
  await requireCode(db, actor, code, now, false);
  await db.dashboardUser.update({ where: { id: actor.userId }, data: { totpEnabled: true, updatedAt: now } });
}

/** Needs the password, checked first so a wrong one does not use up the code. */
export async function disableTotp(db: Database, actor: DashboardActor, input: { code: string; password: string }, now: Date): Promise<void> {
  await requireCurrentPassword(db, actor.userId, input.password, 'password', now);
  const code = input.code;
  await requireCode(db, actor, code, now, true);
  await db.dashboardUser.update({ where: { id: actor.userId }, data: { totpEnabled: false, totpSecretSealed: null, totpLastStep: null, updatedAt: now } });
}
