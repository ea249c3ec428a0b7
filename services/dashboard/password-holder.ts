import type { Database } from '../../prisma/client';
import type { HashPriority } from './password-hash-slots';
import { passwordMatches } from './passwords';
import { dashboardUserSelect } from './users';

/** Which of an e-mail's users a password is checked against. */
export interface PasswordHolders {
  /** One account's user only. */
  accountId?: string;
  /** Only these users (those a known client signed in as). */
  userIds?: readonly string[];
  /** All but these users (those a known client already checked). */
  exceptUserIds?: readonly string[];
}

/**
 * The user an e-mail and password sign in as. An address may be a user of several accounts
 * (e-mails are unique per account): each of its users `holders` allows is tried, oldest first,
 * and the first whose password matches is the one. With none to try, a decoy hash is checked, so
 * an unknown address answers in about the time a wrong password does. `priority`: that of the
 * checks in the process's argon2 slots (password-hash-slots.ts).
 */
export async function userHoldingPassword(db: Database, email: string, password: string, holders: PasswordHolders = {}, priority: HashPriority = 'normal') {
  const users = await db.dashboardUser.findMany({
    where: {
      email,
      ...(holders.accountId ? { accountId: holders.accountId } : {}),
      ...(holders.userIds || holders.exceptUserIds ? { id: { ...(holders.userIds ? { in: [...holders.userIds] } : {}), ...(holders.exceptUserIds ? { notIn: [...holders.exceptUserIds] } : {}) } } : {}),
    },
    orderBy: { id: 'asc' },
    select: { ...dashboardUserSelect, passwordHash: true },
  });
  if (users.length === 0) {
    await passwordMatches(undefined, password, priority);
    return null;
  }
  for (const { passwordHash, ...user } of users) {
    if (await passwordMatches(passwordHash, password, priority)) return user;
  }
  return null;
}
