import type { ActivityDependencies } from '.';
import { finishRefund, refundablePayment, reserveRefund } from '../services/payments/refunds';
import { lockInvoice } from '../services/payments/settle';
import { lockSubscriptionStart, stateOfRow } from '../services/subscriptions/repository';
import { renewPeriod, type RenewPeriodInput, type RenewPeriodResult } from '../services/subscriptions/renew-period';
import { saveSubscriptionStep, type SaveInput, type SaveResult } from '../services/subscriptions/save';
import { subscriptionSelect } from '../services/subscriptions/subscription-row';
import { INVOICE_TRANSITIONS } from '../domain/invoice-status';
import { creditToRefund, type Proration } from '../domain/subscriptions/proration';
import { type SubscriptionState } from '../domain/subscriptions/state';
import { refusalsAsFailures } from './refusals';

export interface CreditInput {
  subscriptionId: string;
  /** Names the credit (`proration/<version>`): its refunds are keyed by it, once each. */
  key: string;
  credit: Proration;
}

export function createSubscriptionActivities(deps: ActivityDependencies) {
  const { db } = deps;
  return {
    /** The row as the workflow's starting state; null when the create (or restore) that started it rolled back. */
    async loadSubscription({ subscriptionId }: { subscriptionId: string }): Promise<SubscriptionState | null> {
      return db.$transaction(async (tx) => {
        await lockSubscriptionStart(tx, subscriptionId);
        const row = await tx.subscription.findUnique({ where: { id: subscriptionId }, select: subscriptionSelect });
        return row ? stateOfRow(row) : null;
      });
    },

    /**
     * Gives back a proration credit (docs/subscriptions.md, "Proration"): discounted as the
     * newest paid invoice was and taxed as its lines were (creditToRefund), then refunded against the
     * subscription's paid invoices, newest first, as far as their payments go; what they never
     * took is not given. All refunds are reserved in one transaction under keys derived from
     * the credit, so a retry finds them and only finishes them with their providers.
     */
    async refundProrationCredit(input: CreditInput): Promise<{ refunded: number; refundIds: string[] }> {
      const prefix = `subscription-credit/${input.subscriptionId}/${input.key}/`;
      const refundIds = await db.$transaction(async (tx) => {
        const paid = await tx.invoice.findMany({
          where: { subscriptionId: input.subscriptionId, status: 'PAID', deletedAt: null },
          orderBy: { id: 'desc' },
          select: { id: true, accountId: true, amountDetails: true },
        });
        if (paid.length === 0) return [];
        // Refunds stay on PAID invoices: a retry finds what the first run reserved among them.
        const reserved = await tx.refund.findMany({
          where: { invoiceId: { in: paid.map((invoice) => invoice.id) }, idempotencyKey: { startsWith: prefix } },
          orderBy: { id: 'asc' },
          select: { id: true },
        });
        if (reserved.length > 0) return reserved.map((r) => r.id);
        const newest = paid[0]!;
        let left = creditToRefund(input.credit, newest.amountDetails as { subtotal: number; discount: number });
        const ids: string[] = [];
        const now = new Date();
        for (const invoice of paid) {
          if (left === 0) break;
          await lockInvoice(tx, invoice.id);
          const found = await refundablePayment(tx, invoice.id);
          if (!found || found.refundable === 0) continue;
          const amount = Math.min(left, found.refundable);
          ids.push(await reserveRefund(tx, { invoice, payment: found.payment, amount, reason: input.credit.description, key: `${prefix}${invoice.id}`, now }));
          left -= amount;
        }
        return ids;
      });
      let refunded = 0;
      for (const id of refundIds) {
        const outcome = await finishRefund(db, id, (work) => db.$transaction(work), () => new Date());
        if (outcome.refund.status === 'SUCCEEDED') refunded += outcome.refund.amount;
      }
      return { refunded, refundIds };
    },

    /** How many of the subscription's invoices are still owed (could still be paid). */
    async subscriptionInvoicesOwed({ subscriptionId }: { subscriptionId: string }): Promise<number> {
      return db.invoice.count({ where: { subscriptionId, deletedAt: null, status: { in: [...INVOICE_TRANSITIONS.pay.from] } } });
    },

    /** One state change of the workflow, in one transaction (services/subscriptions/save.ts). */
    saveSubscription: (input: SaveInput): Promise<SaveResult> => refusalsAsFailures(() => saveSubscriptionStep(db, input)),

    /** A billing step with its first charge and, paid, its outcome (services/subscriptions/renew-period.ts). */
    renewSubscriptionPeriod: (input: RenewPeriodInput): Promise<RenewPeriodResult> =>
      refusalsAsFailures(() => renewPeriod({ db, now: () => new Date() }, input, process.env.DUNNING_RETRY_SCHEDULE_DAYS)),
  };
}
