import type { Database, Prisma } from '../../../prisma/client';

type Db = Database | Prisma.TransactionClient;

export type StoredStripeEvent = NonNullable<Awaited<ReturnType<Database['stripeEvent']['findUnique']>>>;

export interface StripeEventKey {
  accountId: string;
  eventId: string;
}

/**
 * Stores a verified event once per account and Stripe event id (INSERT … ON CONFLICT DO
 * NOTHING): Stripe delivers at least once and retries what it thinks failed. Returns whether
 * this delivery stored it.
 */
export async function storeStripeEvent(
  db: Db,
  event: { accountId: string; eventId: string; type: string; objectId: string | null; payload: Prisma.InputJsonValue },
  receivedAt: Date,
): Promise<boolean> {
  const { count } = await db.stripeEvent.createMany({ data: [{ ...event, receivedAt }], skipDuplicates: true });
  return count === 1;
}

export function storedStripeEvent(db: Db, key: StripeEventKey): Promise<StoredStripeEvent | null> {
  return db.stripeEvent.findUnique({ where: { accountId_eventId: { accountId: key.accountId, eventId: key.eventId } } });
}

/**
 * Takes the event's row lock in the caller's transaction and says whether it is still to be
 * applied: an effect written in that transaction is written once, however many runs race.
 */
export async function claimStripeEvent(tx: Prisma.TransactionClient, key: StripeEventKey): Promise<boolean> {
  const rows = await tx.$queryRaw<{ unapplied: boolean }[]>`
    SELECT applied_at IS NULL AS unapplied FROM stripe_events WHERE account_id = ${key.accountId} AND event_id = ${key.eventId} FOR UPDATE`;
  return rows[0]?.unapplied === true;
}

/** Marks the event applied with what applying it did; only the first mark counts. */
export async function markStripeEventApplied(db: Db, key: StripeEventKey, outcome: string, at: Date): Promise<boolean> {
  const { count } = await db.stripeEvent.updateMany({ where: { accountId: key.accountId, eventId: key.eventId, appliedAt: null }, data: { appliedAt: at, outcome } });
  return count === 1;
}

/** Events not applied yet that were received before `before`, oldest first: the sweep's batch. */
export async function unappliedStripeEvents(db: Db, before: Date, take: number): Promise<Array<StripeEventKey & { receivedAt: Date }>> {
  return db.stripeEvent.findMany({
    where: { appliedAt: null, receivedAt: { lt: before } },
    orderBy: { receivedAt: 'asc' },
    take,
    select: { accountId: true, eventId: true, receivedAt: true },
  });
}
