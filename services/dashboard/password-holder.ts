import type { Database } from '../../prisma/client';
import type { HashPriority } from './password-hash-slots';
import { passwordMatches } from './passwords';
import { dashboardUserSelect } from './users';

/**
 * The user an e-mail and password sign in as. An address may be a user of several accounts
 * (e-mails are unique per account): each of its users is tried, oldest first, and the first whose
 * password matches is the one; `accountId` picks one account. An unknown address is checked
 * against a decoy hash, so it answers in about the time a wrong password does. `priority`: that of
 * the checks in the process's argon2 slots (password-hash-slots.ts).
 */
export async function userHoldingPassword(db: Database, email: string, password: string, accountId?: string, priority: HashPriority = 'normal') {
  const users = await db.dashboardUser.findMany({
    where: { email, ...(accountId ? { accountId } : {}) },
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
