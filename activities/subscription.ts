import { createHash } from 'node:crypto';
import type { ActivityDependencies } from '.';
import { finalizationFailed, FinalizationRefused, finalizeDraft } from '../services/invoices/finalize';
import { refundProrationCredit, type ProrationCredit } from '../services/subscriptions/proration-refund';
import { createInvoiceRecord, findInvoiceCustomer } from '../services/invoices/repository';
import { lockSubscription, lockSubscriptionStart, stateOfRow, writeSubscription } from '../services/subscriptions/repository';
import { serializeSubscription, type SubscriptionObject } from '../services/subscriptions/subscription-object';
import { subscriptionSelect } from '../services/subscriptions/subscription-row';
import type { EventName } from '../domain/event-catalogue';
import { ID_PREFIXES } from '../domain/ids';
import { INVOICE_TRANSITIONS } from '../domain/invoice-status';
import { invoiceTerms, type PlannedInvoice } from '../domain/subscriptions/billing';
import { type SubscriptionState } from '../domain/subscriptions/state';
import { ApplicationFailure } from '@temporalio/common';
import { failureOf } from './refusals';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The id of a subscription's invoice, derived from the subscription and the invoice's key
 * (`cycle/3`, `proration/17`): a ULID whose time is when the workflow issued it and whose
 * random part is a hash of the key. A retried activity, or the same step replayed, finds the
 * invoice it made instead of making a second; ids still sort by creation time.
 */
export function subscriptionInvoiceId(subscriptionId: string, key: string, at: number): string {
  let time = '';
  for (let rest = at, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  const digest = createHash('sha256').update(`${subscriptionId}/${key}`).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i]! % 32];
  return `${ID_PREFIXES.invoice}${time}${random}`;
}

export interface SaveInput {
  state: SubscriptionState;
  events: EventName[];
  /** An invoice to issue with this state, in the same transaction. */
  invoice?: PlannedInvoice;
}

export interface SaveResult {
  subscription: SubscriptionObject;
  invoice?: { id: string; status: string };
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

    refundProrationCredit: (input: ProrationCredit) => refundProrationCredit({ db, now: () => new Date() }, input),

    /** How many of the subscription's invoices are still owed (could still be paid). */
    async subscriptionInvoicesOwed({ subscriptionId }: { subscriptionId: string }): Promise<number> {
      return db.invoice.count({ where: { subscriptionId, deletedAt: null, status: { in: [...INVOICE_TRANSITIONS.pay.from] } } });
    },

    /**
     * One state change of the workflow, in one transaction: the invoice it issues (created and
     * finalized, found instead when it exists), the row and its lines, and its events. A state
     * whose version the row already holds is not written again, so a retry records nothing twice.
     */
    async saveSubscription(input: SaveInput): Promise<SaveResult> {
      const { state } = input;
      const now = new Date(state.updatedAt);
      return db.$transaction(async (tx) => {
        const stored = await lockSubscription(tx, state.id);
        if (!stored) throw ApplicationFailure.nonRetryable(`Subscription ${state.id} has no row.`, 'SUBSCRIPTION_MISSING');
        let invoice: SaveResult['invoice'];
        let written = state;
        if (input.invoice) {
          const id = subscriptionInvoiceId(state.id, input.invoice.key, state.updatedAt);
          const existing = await tx.invoice.findUnique({ where: { id }, select: { status: true } });
          if (existing) {
            invoice = { id, status: existing.status };
          } else {
            const customer = await findInvoiceCustomer(tx, state.customerId);
            const terms = invoiceTerms(state, state.updatedAt);
            const { row } = await createInvoiceRecord(tx, {
              id,
              accountId: state.accountId,
              customer,
              currency: state.currency,
              billingReason: input.invoice.billingReason,
              subscriptionId: state.id,
              state: {
                lines: input.invoice.lines,
                discounts: state.discounts,
                collectionMethod: terms.collectionMethod,
                paymentInstrumentId: state.paymentInstrumentId,
                dueAt: terms.dueAt === null ? null : new Date(terms.dueAt),
                notes: null,
                merchantReference: state.merchantReference,
                metadata: null,
              },
              now,
            });
            try {
              const finalized = await finalizeDraft(tx, row, { now, instrumentChecked: false });
              invoice = { id, status: finalized.row.status };
            } catch (error) {
              if (error instanceof FinalizationRefused) throw failureOf(finalizationFailed(id, error.reasons));
              throw error;
            }
          }
          written = { ...state, latestInvoiceId: id };
        }
        const row = await writeSubscription(tx, stored, written, input.events);
        return { subscription: serializeSubscription(row), ...(invoice ? { invoice } : {}) };
      });
    },
  };
}
