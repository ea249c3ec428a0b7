import { ApiError } from '../../domain/errors';
import type { Database, Prisma } from '../../prisma/client';
import { passwordMatches } from './passwords';

/**
 * A signed-in user proves they are the person, not a borrowed or stolen session, before a change
 * that would lock them out or outlast the session (their password, their second factor).
 * 400 VALIDATION on `field` when the password is wrong.
 */
export async function requireCurrentPassword(db: Database | Prisma.TransactionClient, userId: string, password: string, field: string): Promise<void> {
  const user = await db.dashboardUser.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await passwordMatches(user.passwordHash, password))) {
    const message = 'This is not your current password.';
    throw ApiError.validation({ [field]: { type: 'INVALID', message } }, message);
  }
}
