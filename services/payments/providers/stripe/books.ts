import type { Database } from '../../../../prisma/client';

export type StripeRequestKind = 'CHARGE' | 'REFUND';

export interface StripeRequestRow {
  objectId: string | null;
  amount: number;
  currency: string;
}

/**
 * The request recorded under the key, or null when none was ever sent: then Stripe holds
 * nothing under it and sending it is safe.
 */
export async function recordedRequest(db: Database, accountId: string, idempotencyKey: string): Promise<StripeRequestRow | null> {
  return db.stripeRequest.findUnique({
    where: { accountId_idempotencyKey: { accountId, idempotencyKey } },
    select: { objectId: true, amount: true, currency: true },
  });
}

/** Written and committed before the request is sent, so a run that dies mid-call leaves a trace. */
export async function recordRequest(
  db: Database,
  request: { accountId: string; idempotencyKey: string; kind: StripeRequestKind; amount: number; currency: string },
  now: Date,
): Promise<void> {
  await db.stripeRequest.createMany({ data: [{ ...request, requestedAt: now, updatedAt: now }], skipDuplicates: true });
}

/** Stripe's id of the object the request made, once known. */
export async function recordObject(db: Database, accountId: string, idempotencyKey: string, objectId: string, now: Date): Promise<void> {
  await db.stripeRequest.updateMany({ where: { accountId, idempotencyKey, objectId: null }, data: { objectId, updatedAt: now } });
}

/** The key a PaymentIntent or Refund was asked under: how a webhook finds our payment or refund. */
export async function requestOfObject(db: Database, accountId: string, objectId: string): Promise<{ idempotencyKey: string; kind: string } | null> {
  return db.stripeRequest.findFirst({ where: { accountId, objectId }, select: { idempotencyKey: true, kind: true } });
}
