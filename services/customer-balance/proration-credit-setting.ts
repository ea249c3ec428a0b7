import type { ProrationCreditDestination } from '../../domain/balance-transactions';
import type { Prisma } from '../../prisma/client';

/** The account's default destination of proration credits (docs/customer-balance.md, "Proration credits"). */
export async function prorationCreditSetting(db: Prisma.TransactionClient, accountId: string): Promise<ProrationCreditDestination> {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { prorationCredit: true } });
  return account.prorationCredit as ProrationCreditDestination;
}
