import { normaliseFieldValue, type AntifraudField } from '../../domain/antifraud';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

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
 * One statement: the account's switch, its lists and their unexpired items matching any of the
 * payment's (field, value) pairs, given as two arrays of the same length.
 */
const screeningSql = sqlStatement(
  'antifraud.screen_payment',
  `SELECT i.id, i.list_id AS "listId", l.field, l.action
   FROM accounts a
   JOIN antifraud_list_items i ON i.account_id = a.id
   JOIN antifraud_lists l ON l.id = i.list_id
   WHERE a.id = $1 AND a.antifraud_enabled
     AND (i.expired_at IS NULL OR i.expired_at > $2)
     AND (l.field, i.field_value) IN (SELECT * FROM unnest($3::text[], $4::text[]))
   ORDER BY i.id`,
);

/**
 * Checks a payment against the account's antifraud lists before any provider is called. An
 * unexpired item of an ALLOW list matching any field lets the payment through; otherwise an
 * unexpired item of a BLOCK list matching any field blocks it. An account with antifraud
 * disabled is not screened.
 */
export async function screenPayment(db: Database | Prisma.TransactionClient, subject: PaymentSubject, now: Date): Promise<Screening> {
  const candidates: Array<[AntifraudField, string | undefined]> = [
    ['IP_ADDRESS', subject.ipAddress],
    ['CUSTOMER_EMAIL', subject.customerEmail],
    ['CUSTOMER_ID', subject.customerId],
    ['CARDHOLDER', subject.cardholder],
    ['CARD_ID', subject.instrumentId],
    ['CARD_ID', subject.fingerprint],
  ];
  const present = candidates.filter((c): c is [AntifraudField, string] => Boolean(c[1]));
  const matches = await readRows<{ id: string; listId: string; field: string; action: string }>(db, screeningSql, [
    subject.accountId,
    now,
    present.map(([field]) => field),
    present.map(([field, value]) => normaliseFieldValue(field, value)),
  ]);
  const allow = matches.find((m) => m.action === 'ALLOW');
  if (allow) return { outcome: 'ALLOWED', listId: allow.listId, field: allow.field as AntifraudField };
  const block = matches.find((m) => m.action === 'BLOCK');
  if (block) return { outcome: 'BLOCKED', listId: block.listId, itemId: block.id, field: block.field as AntifraudField };
  return { outcome: 'PASS' };
}
