import { normaliseFieldValue, type AntifraudField } from '../../domain/antifraud';
import type { Database } from '../../prisma/client';

export interface PaymentSubject {
  accountId: string;
  ipAddress?: string;
  customerEmail?: string;
  customerId: string;
  cardholder?: string;
  /** The instrument id; CARD_ID items may also hold the card's fingerprint. */
  instrumentId: string;
  fingerprint: string;
}

export type Screening =
  | { outcome: 'PASS' }
  | { outcome: 'ALLOWED'; listId: string; field: AntifraudField }
  | { outcome: 'BLOCKED'; listId: string; itemId: string; field: AntifraudField };

/**
 * Checks a payment against the account's antifraud lists before any provider is called. An
 * unexpired item of an ALLOW list matching any field lets the payment through; otherwise an
 * unexpired item of a BLOCK list matching any field blocks it. An account with antifraud
 * disabled is not screened.
 */
export async function screenPayment(db: Database, subject: PaymentSubject, now: Date): Promise<Screening> {
  const account = await db.account.findUniqueOrThrow({ where: { id: subject.accountId }, select: { antifraudEnabled: true } });
  if (!account.antifraudEnabled) return { outcome: 'PASS' };

  const candidates: Array<[AntifraudField, string | undefined]> = [
    ['IP_ADDRESS', subject.ipAddress],
    ['CUSTOMER_EMAIL', subject.customerEmail],
    ['CUSTOMER_ID', subject.customerId],
    ['CARDHOLDER', subject.cardholder],
    ['CARD_ID', subject.instrumentId],
    ['CARD_ID', subject.fingerprint],
  ];
  const conditions = candidates
    .filter((c): c is [AntifraudField, string] => Boolean(c[1]))
    .map(([field, value]) => ({ fieldValue: normaliseFieldValue(field, value), list: { field } }));

  const matches = await db.antifraudListItem.findMany({
    where: {
      accountId: subject.accountId,
      OR: conditions,
      AND: [{ OR: [{ expiredAt: null }, { expiredAt: { gt: now } }] }],
    },
    select: { id: true, listId: true, list: { select: { field: true, action: true } } },
    orderBy: { id: 'asc' },
  });
  const allow = matches.find((m) => m.list.action === 'ALLOW');
  if (allow) return { outcome: 'ALLOWED', listId: allow.listId, field: allow.list.field as AntifraudField };
  const block = matches.find((m) => m.list.action === 'BLOCK');
  if (block) return { outcome: 'BLOCKED', listId: block.listId, itemId: block.id, field: block.list.field as AntifraudField };
  return { outcome: 'PASS' };
}
