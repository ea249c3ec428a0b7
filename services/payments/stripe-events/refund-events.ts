import type Stripe from 'stripe';
import { outcomeOfRefund } from '../../../domain/stripe-outcomes';
import type { Database } from '../../../prisma/client';
import { requestOfObject } from '../providers/stripe/books';
import type { StripeConnection } from '../providers/stripe/connection';
import { finishRefund } from '../refunds';

/** The metadata field our Refunds carry their key in (services/payments/providers/stripe/stripe-provider.ts). */
const KEY_FIELD = 'bp_idempotency_key';

export interface RefundEventDependencies {
  db: Database;
  now: () => Date;
  connection: () => Promise<StripeConnection | null>;
}

/**
 * `refund.created`, `refund.updated`, `refund.failed` (one Refund) and `charge.refunded` (every
 * Refund of the charge): each Refund of ours still PENDING is finished with Stripe's word, as
 * the refund path would have (finishRefund: only the call that finds it PENDING writes, so a
 * repeated or late event changes nothing). A Refund made outside the platform (Stripe's
 * dashboard) is not invented here: not supported yet (docs/payments-stripe.md).
 */
export async function applyRefundEvent(deps: RefundEventDependencies, accountId: string, type: string, object: Stripe.Refund | Stripe.Charge): Promise<string> {
  const refunds = type === 'charge.refunded' ? await refundsOfCharge(deps, object as Stripe.Charge) : [object as Stripe.Refund];
  if (refunds.length === 0) return `ignored: charge ${object.id} has no refunds`;
  const outcomes: string[] = [];
  for (const refund of refunds) outcomes.push(await applyRefund(deps, accountId, refund));
  return outcomes.join('; ');
}

async function applyRefund(deps: RefundEventDependencies, accountId: string, refund: Stripe.Refund): Promise<string> {
  const { db } = deps;
  const request = await requestOfObject(db, accountId, refund.id);
  const key = request?.kind === 'REFUND' ? request.idempotencyKey : refund.metadata?.[KEY_FIELD];
  const ours = key ? await db.refund.findUnique({ where: { accountId_idempotencyKey: { accountId, idempotencyKey: key } } }) : null;
  if (!ours) return `unknown refund ${refund.id}: not made by the platform, not recorded`;
  if (ours.status !== 'PENDING') return `ignored: refund ${ours.id} is ${ours.status}`;
  const finished = await finishRefund(db, ours.id, (work) => db.$transaction(work), deps.now, undefined, outcomeOfRefund(refund));
  return `refund ${ours.id} ${finished.refund.status}`;
}

/**
 * The charge's Refunds: carried by the event in API versions before 2022-11-15, listed from
 * Stripe otherwise (or when the event's list was cut short).
 */
async function refundsOfCharge(deps: RefundEventDependencies, charge: Stripe.Charge): Promise<Stripe.Refund[]> {
  if (charge.refunds && !charge.refunds.has_more) return charge.refunds.data;
  const connection = await deps.connection();
  if (!connection) return [];
  const refunds: Stripe.Refund[] = [];
  for await (const refund of connection.client.refunds.list({ charge: charge.id, limit: 100 })) refunds.push(refund);
  return refunds;
}
