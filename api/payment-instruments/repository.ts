import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { CardBrand, SandboxScenario } from '../../domain/cards';
import type { Prisma } from '../../prisma/client';
import { resolveChannelScope } from '../auth/channel-scope';
import type { AuthorizedContext } from '../trpc';
import { paymentInstrumentSelect } from '../../services/payment-instruments/records';

type Db = Prisma.TransactionClient;

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
  sandboxScenario: SandboxScenario;
  now: Date;
}

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
      sandboxScenario: card.sandboxScenario,
      status: 'ACTIVE',
      createdAt: card.now,
      updatedAt: card.now,
    },
    select: paymentInstrumentSelect,
  });
}

/** As for customers: an instrument outside the caller's channels is answered as absent. */
export async function visibleInstrument(db: Db, ctx: AuthorizedContext, id: string, channelId: string | undefined) {
  const scope = resolveChannelScope(ctx.principal, channelId);
  const row = await db.paymentInstrument.findFirst({ where: { id, accountId: ctx.principal.accountId }, select: paymentInstrumentSelect });
  if (!row || (scope !== null && !scope.includes(row.channelId))) throw ApiError.notFound('Payment instrument', id);
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
