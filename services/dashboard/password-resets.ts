import { ApiError } from '../../domain/errors';
import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import { publicUrl } from '../files/config';
import { lockAccountUsers, requireStillAdmin } from './account-users-lock';
import type { DashboardActor } from './actor';
import { passwordConstraintViolation } from './password-length';
import { hashPassword } from './passwords';

/** Short: the link hands over an account, and the admin passes it on at once. */
const RESET_LINK_TTL_MS = 3600_000;

export function passwordResetUrl(token: string): string {
  return `${publicUrl()}/dashboard/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * users/send-password-reset: a link for a user of the admin's account to set a new password,
 * usable once within an hour. No e-mail is sent; the admin passes the link on, as with
 * invitations. An older unused link of the same user stops working, so only the newest is live.
 * Made under the lock removal and demotion take, with the admin's role read again, so a link made
 * while its maker is removed or demoted is refused or deleted with the rest.
 */
export async function createPasswordReset(db: Database, actor: DashboardActor, userId: string, now: Date) {
  const token = newDashboardToken();
  const expiresAt = new Date(now.getTime() + RESET_LINK_TTL_MS);
  await db.$transaction(async (tx) => {
    await lockAccountUsers(tx, actor.accountId);
    await requireStillAdmin(tx, actor);
    const user = await tx.dashboardUser.findFirst({ where: { id: userId, accountId: actor.accountId }, select: { id: true } });
    if (!user) throw ApiError.notFound('User', userId);
    await tx.dashboardPasswordReset.deleteMany({ where: { userId, usedAt: null } });
    await tx.dashboardPasswordReset.create({
      data: { id: newId('dashboardPasswordReset', now.getTime()), userId, tokenHash: hashDashboardToken(token), createdBy: actor.userId, createdAt: now, expiresAt },
    });
  });
  return { url: passwordResetUrl(token), expiresAt };
}

/**
 * Links an admin made die when they stop being one (removed or demoted), as their invitations do.
 * Deleted rather than marked: the link then answers as one replaced by a newer link does.
 */
export async function deletePasswordResetsBy(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.dashboardPasswordReset.deleteMany({ where: { createdBy: userId, usedAt: null } });
}

const resetSelect = { id: true, userId: true, expiresAt: true, usedAt: true } as const;

function invalidResetLink(reason: 'UNKNOWN' | 'USED' | 'EXPIRED'): ApiError {
  const message = {
    UNKNOWN: 'This password reset link is not valid.',
    USED: 'This password reset link has already been used.',
    EXPIRED: 'This password reset link has expired; ask an admin for a new one.',
  }[reason];
  return new ApiError('RESET_LINK_INVALID', message, { reason });
}

function usable<T extends { expiresAt: Date; usedAt: Date | null }>(reset: T | null, now: Date): T {
  if (!reset) throw invalidResetLink('UNKNOWN');
  if (reset.usedAt) throw invalidResetLink('USED');
  if (reset.expiresAt <= now) throw invalidResetLink('EXPIRED');
  return reset;
}

/** What the reset page shows: whose password it sets, in which account. */
export async function describePasswordReset(db: Database, token: string, now: Date) {
  const reset = usable(await db.dashboardPasswordReset.findUnique({ where: { tokenHash: hashDashboardToken(token) }, select: resetSelect }), now);
  const user = await db.dashboardUser.findUniqueOrThrow({ where: { id: reset.userId }, select: { email: true, accountId: true } });
  const account = await db.account.findUniqueOrThrow({ where: { id: user.accountId }, select: { name: true } });
  return { email: user.email, account_name: account.name };
}

/**
 * session/reset-password: the link is looked at before the password is hashed (a bogus one costs
 * no argon2 run), then used under its row lock, so of two requests with one link one wins. Every
 * session of the user ends. It signs no one in: the person signs in as usual, with their second
 * factor if they have one, which a link an admin made must not skip.
 */
export async function resetPassword(db: Database, input: { token: string; password: string }, now: Date) {
  const violation = passwordConstraintViolation(input.password);
  if (violation) throw violation;
  const tokenHash = hashDashboardToken(input.token);
  usable(await db.dashboardPasswordReset.findUnique({ where: { tokenHash }, select: resetSelect }), now);
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM dashboard_password_resets WHERE token_hash = ${tokenHash} FOR UPDATE`;
    const reset = usable(locked[0] ? await tx.dashboardPasswordReset.findUnique({ where: { id: locked[0].id }, select: resetSelect }) : null, now);
    await tx.dashboardPasswordReset.update({ where: { id: reset.id }, data: { usedAt: now } });
    const user = await tx.dashboardUser.update({ where: { id: reset.userId }, data: { passwordHash, updatedAt: now }, select: { id: true, email: true, accountId: true } });
    await tx.dashboardSession.deleteMany({ where: { userId: reset.userId } });
    return { userId: user.id, email: user.email, accountId: user.accountId };
  });
}
