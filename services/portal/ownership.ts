import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import type { PortalActor } from './actor';

/**
 * The portal names objects by id; one of another customer (or another account) is answered as
 * absent, exactly as an id that does not exist, so a guessed id tells nothing. Ownership never
 * changes after creation, so checking before the /v2 call that acts on it is enough.
 */
export async function ownedInvoice(db: Database, actor: PortalActor, id: string) {
  const row = await db.invoice.findFirst({ where: { id, accountId: actor.accountId, customerId: actor.customerId }, select: { id: true, status: true } });
  if (!row || row.status === 'DRAFT') throw ApiError.notFound('Invoice', id);
  return row;
}

export async function ownedInstrument(db: Database, actor: PortalActor, id: string) {
  const row = await db.paymentInstrument.findFirst({ where: { id, accountId: actor.accountId, customerId: actor.customerId }, select: { id: true, status: true } });
  if (!row) throw ApiError.notFound('Payment instrument', id);
  return row;
}

export async function ownedSubscription(db: Database, actor: PortalActor, id: string) {
  const row = await db.subscription.findFirst({
    where: { id, accountId: actor.accountId, customerId: actor.customerId },
    select: { id: true, status: true, cancellationInfo: true, lineItems: { select: { id: true, productPriceId: true } } },
  });
  if (!row) throw ApiError.notFound('Subscription', id);
  return row;
}
