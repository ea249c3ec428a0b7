import { ApiError } from '../../domain/errors';
import { instrumentsInUse } from '../../domain/portal/rules';
import { LIVE_SUBSCRIPTION_STATUSES } from '../../domain/subscription-status';
import type { Database } from '../../prisma/client';
import { defaultInstrumentOf } from '../payment-instruments/chargeable-instrument';
import type { PortalActor } from './actor';

/** Instrument id → the customer's live subscriptions that would charge it. */
export async function customerInstrumentsInUse(db: Database, actor: PortalActor): Promise<Map<string, string[]>> {
  const [customer, subscriptions] = await Promise.all([
    db.customer.findFirst({ where: { id: actor.customerId, accountId: actor.accountId }, select: { configuration: true } }),
    db.subscription.findMany({
      where: { accountId: actor.accountId, customerId: actor.customerId, status: { in: [...LIVE_SUBSCRIPTION_STATUSES] } },
      select: { id: true, paymentInstrumentId: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const namedIds = [...new Set(subscriptions.flatMap((subscription) => (subscription.paymentInstrumentId ? [subscription.paymentInstrumentId] : [])))];
  const named = new Map(
    (await db.paymentInstrument.findMany({ where: { accountId: actor.accountId, id: { in: namedIds } }, select: { id: true, status: true } })).map((row) => [row.id, row]),
  );
  return instrumentsInUse(
    subscriptions.map((subscription) => ({
      id: subscription.id,
      paymentInstrument: subscription.paymentInstrumentId ? (named.get(subscription.paymentInstrumentId) ?? { id: subscription.paymentInstrumentId, status: 'MISSING' }) : null,
    })),
    customer ? defaultInstrumentOf(customer) : undefined,
  );
}

/**
 * The portal's rule before payment-instruments/revoke: a customer may remove a card only when no
 * live subscription would charge it (422 INSTRUMENT_IN_USE). A subscription the merchant points at
 * the card a moment later is the merchant's choice; its next charge then declines and dunning
 * tells the customer.
 */
export async function refuseInstrumentInUse(db: Database, actor: PortalActor, instrumentId: string): Promise<void> {
  const subscriptionIds = (await customerInstrumentsInUse(db, actor)).get(instrumentId);
  if (subscriptionIds?.length) {
    throw new ApiError('INSTRUMENT_IN_USE', `Payment instrument ${instrumentId} pays ${subscriptionIds.length} live subscription(s); give them another card first.`, {
      subscription_ids: subscriptionIds,
    });
  }
}
