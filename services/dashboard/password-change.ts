import type { Database } from '../../prisma/client';
import type { DashboardActor } from './actor';
import { requireCurrentPassword } from './current-password';
import { passwordConstraintViolation } from './password-length';
import { hashPassword } from './passwords';

/**
 * password/change: the current password, then the new one's length, then the hash. Every other
 * session of the user ends and every reset link of theirs goes, so a password someone else knew
 * stops being of use anywhere; the session that changed it stays.
 */
export async function changePassword(db: Database, actor: DashboardActor, input: { currentPassword: string; newPassword: string }, now: Date): Promise<void> {
  const violation = passwordConstraintViolation(input.newPassword, 'new_password');
  if (violation) throw violation;
  await requireCurrentPassword(db, actor.userId, input.currentPassword, 'current_password', now);
  const passwordHash = await hashPassword(input.newPassword);
  await db.$transaction([
    db.dashboardUser.update({ where: { id: actor.userId }, data: { passwordHash, updatedAt: now } }),
    db.dashboardSession.deleteMany({ where: { userId: actor.userId, id: { not: actor.sessionId } } }),
    db.dashboardPasswordReset.deleteMany({ where: { userId: actor.userId } }),
  ]);
}
