import type Stripe from 'stripe';
import { formatDateTime } from '../../../domain/datetime';
import type { Database } from '../../../prisma/client';
import { recordEvent } from '../../../prisma/outbox';
import { invoiceSelect, serializeInvoice } from '../../invoices/invoice-object';
import { summaryOf } from '../charge';
import { paymentOfIntent } from '../providers/stripe/payment-of-intent';
import type { StripeConnection } from '../providers/stripe/connection';
import { paymentObjectOf } from '../settle';
import { claimStripeEvent, markStripeEventApplied, type StripeEventKey } from './stored-events';

/**
 * `charge.dispute.created`: the merchant hears of it as PaymentDisputed (opt-in,
 * docs/events.md), recorded in the outbox in the transaction that marks the event applied,
 * under the event's row lock: once per event, and Stripe makes one such event per dispute.
 * Nothing about the payment or the invoice changes: what the dispute costs arrives with the
 * payout (docs/settlements.md).
 */
export async function announceDispute(
  deps: { db: Database; now: () => Date; connection: () => Promise<StripeConnection | null> },
  event: StripeEventKey,
  dispute: Stripe.Dispute,
): Promise<string> {
  const { db } = deps;
  const intentId = await intentOf(deps, dispute);
  const payment = intentId ? await paymentOfIntent(db, event.accountId, { id: intentId }) : null;
  if (!payment) return `ignored: dispute ${dispute.id} is about ${intentId ?? 'a charge'} that no payment of this account made`;
  return db.$transaction(async (tx) => {
    if (!(await claimStripeEvent(tx, event))) return `ignored: dispute ${dispute.id} already announced`;
    const at = deps.now();
    const invoice = payment.invoiceId ? await tx.invoice.findUniqueOrThrow({ where: { id: payment.invoiceId }, select: invoiceSelect }) : null;
    await recordEvent(tx, {
      accountId: payment.accountId,
      channelId: payment.channelId,
      name: 'PaymentDisputed',
      data: {
        payment: paymentObjectOf(payment.amount, payment.currency, summaryOf(payment), payment.instrumentId),
        ...(invoice ? { invoice: serializeInvoice(invoice, { now: at }) } : {}),
        dispute: {
          id: dispute.id,
          amount: dispute.amount,
          currency: dispute.currency.toUpperCase(),
          reason: dispute.reason,
          status: dispute.status,
          created_at: formatDateTime(new Date(dispute.created * 1000)),
        },
      },
      occurredAt: at,
    });
    const outcome = `PaymentDisputed recorded for payment ${payment.id} (dispute ${dispute.id})`;
    await markStripeEventApplied(tx, event, outcome, at);
    return outcome;
  });
}

/** The PaymentIntent disputed: named by the dispute, else by its charge (asked of Stripe). */
async function intentOf(deps: { connection: () => Promise<StripeConnection | null> }, dispute: Stripe.Dispute): Promise<string | undefined> {
  const named = dispute.payment_intent;
  if (named) return typeof named === 'string' ? named : named.id;
  const chargeId = typeof dispute.charge === 'string' ? dispute.charge : dispute.charge?.id;
  const connection = chargeId ? await deps.connection() : null;
  if (!chargeId || !connection) return undefined;
  const charge = await connection.client.charges.retrieve(chargeId);
  return typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
}
