import type { CardBrand, SandboxScenario } from '../../domain/cards';
import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { PaymentInstrumentStatus } from '../../domain/payment-instrument-status';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';

type Db = Prisma.TransactionClient;

export const paymentInstrumentSelect = {
  id: true,
  accountId: true,
  channelId: true,
  customerId: true,
  brand: true,
  last4: true,
  expMonth: true,
  expYear: true,
  cardholderName: true,
  fingerprint: true,
  provider: true,
  providerReference: true,
  status: true,
  revokedAt: true,
  expiredAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface PaymentInstrumentRow {
  id: string;
  channelId: string;
  customerId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cardholderName: string | null;
  fingerprint: string;
  provider: string | null;
  providerReference: string | null;
  status: string;
  revokedAt: Date | null;
  expiredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The record as the API and the PaymentInstrument* events show it (api/payment-instruments/schemas.ts). */
export function serializePaymentInstrument(row: PaymentInstrumentRow) {
  return {
    id: row.id,
    customer_id: row.customerId,
    channel_id: row.channelId,
    type: 'CARD' as const,
    card: {
      brand: row.brand as CardBrand,
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      ...(row.cardholderName !== null ? { cardholder_name: row.cardholderName } : {}),
      fingerprint: row.fingerprint,
    },
    // Absent for the sandbox's own cards: no provider holds them (section 9: an optional field).
    ...(row.provider !== null ? { provider: row.provider } : {}),
    ...(row.providerReference !== null ? { provider_reference: row.providerReference } : {}),
    status: row.status as PaymentInstrumentStatus,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    ...(row.revokedAt ? { revoked_at: formatDateTime(row.revokedAt) } : {}),
    ...(row.expiredAt ? { expired_at: formatDateTime(row.expiredAt) } : {}),
  };
}

export interface NewCard {
  accountId: string;
  channelId: string;
  customerId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  cardholderName: string | null;
  fingerprint: string;
  custody: CardCustody;
  now: Date;
}

/**
 * Who holds the card: the sandbox, which acts out the scenario the test number stood for, or a
 * provider, by its ids of the card (`pm_…`) and of the customer it is attached to (`cus_…`).
 */
export type CardCustody =
  | { sandboxScenario: SandboxScenario }
  | { provider: string; providerReference: string; providerCustomerReference: string };

export function insertCard(tx: Db, card: NewCard) {
  return tx.paymentInstrument.create({
    data: {
      id: newId('paymentInstrument', card.now.getTime()),
      accountId: card.accountId,
      channelId: card.channelId,
      customerId: card.customerId,
      type: 'CARD',
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      cardholderName: card.cardholderName,
      fingerprint: card.fingerprint,
      ...card.custody,
      status: 'ACTIVE',
      createdAt: card.now,
      updatedAt: card.now,
    },
    select: paymentInstrumentSelect,
  });
}

/** As for customers: an instrument outside the caller's channels is answered as absent. */
export async function visibleInstrument(db: Db, scope: Scope, id: string) {
  const row = await db.paymentInstrument.findFirst({ where: { id, accountId: scope.accountId }, select: paymentInstrumentSelect });
  if (!row || (scope.channels !== null && !scope.channels.includes(row.channelId))) throw ApiError.notFound('Payment instrument', id);
  return row;
}

/**
 * ACTIVE → REVOKED. The status condition takes the row lock, so a revoke racing the expiry
 * activity (which moves ACTIVE → EXPIRED the same way) lets exactly one of them win.
 */
export async function revokeInstrument(tx: Db, id: string, now: Date) {
  const { count } = await tx.paymentInstrument.updateMany({
    where: { id, status: 'ACTIVE' },
    data: { status: 'REVOKED', revokedAt: now, updatedAt: now },
  });
  const row = await tx.paymentInstrument.findUniqueOrThrow({ where: { id }, select: paymentInstrumentSelect });
  return { revoked: count > 0, row };
}
