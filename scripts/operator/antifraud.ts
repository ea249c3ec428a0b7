import type { Database } from '../../prisma/client';

/**
 * Turns antifraud on or off for an account. Off: payments are not screened and every
 * antifraud-lists operation answers 422 INCOMPATIBLE_STATUS; the lists are kept and apply
 * again once it is back on.
 */
export async function setAntifraudEnabled(db: Database, accountId: string, enabled: boolean) {
  const updated = await db.account.updateMany({ where: { id: accountId }, data: { antifraudEnabled: enabled } });
  if (updated.count === 0) throw new Error(`Account ${accountId} does not exist.`);
  return { id: accountId, antifraud_enabled: enabled };
}
