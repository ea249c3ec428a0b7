import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import type { PlannedInvoice } from '../../domain/subscriptions/billing';
import { nextCycle } from '../../domain/subscriptions/next-cycle';
import { creditPartsTotal, prorationInvoice } from '../../domain/subscriptions/proration';
import { periodLine, type SubscriptionState } from '../../domain/subscriptions/state';
import { update } from '../../domain/subscriptions/update';
import type { Prisma } from '../../prisma/client';
import { readBalance } from '../customer-balance/append-transaction';
import { findInvoiceCustomer } from '../invoices/repository';
import type { Scope } from '../scope';
import { buildSubscriptionInvoice } from '../subscriptions/invoice-draft';
import { usageLinesOf } from '../subscriptions/usage-lines';
import { UsageChargeTooLarge } from '../../domain/usage/pricing';
import { balanceCreditParts } from '../subscriptions/proration-balance-credit';
import { stateOfRow } from '../subscriptions/repository';
import type { UpdateSubscriptionInput } from '../subscriptions/requests';
import { resolveChanges } from '../subscriptions/update';
import { visibleSubscription } from '../subscriptions/visible';
import { refusedAsApiError } from '../subscriptions/workflow-client';
import { invoicePreviewObject, type InvoicePreview } from './preview-object';

export interface InvoicePreviewInput {
  subscription_id: string;
  /** A proposed subscriptions/update body (without id and channel_id). */
  subscription_update?: UpdateSubscriptionInput;
  /** When the update is taken to happen; default now. */
  proration_date?: string;
}

export interface InvoicePreviewResult {
  subscription_id: string;
  /** With `subscription_update` only: the invoice the update issues at once (a positive proration), or null when it issues none. */
  update_invoice?: InvoicePreview | null;
  /** The next cycle's invoice (after the update, when one is proposed), or null when no cycle will bill. */
  next_invoice: InvoicePreview | null;
}


/**
 * invoices/preview (docs/invoice-preview.md): the invoices the subscription's workflow would
 * issue, computed from its read model by the steps the workflow takes (update, prorationInvoice,
 * nextCycle → billCycle) and the one invoice builder (buildSubscriptionInvoice), without writing
 * anything, recording any event or telling the workflow. A proposed update is resolved and
 * refused exactly as subscriptions/update would be.
 */
export async function previewInvoices(
  deps: { db: Prisma.TransactionClient; now: () => Date },
  scope: Scope,
  input: InvoicePreviewInput,
): Promise<InvoicePreviewResult> {
  const { db } = deps;
  const row = await visibleSubscription(db, scope, input.subscription_id);
  let state = stateOfRow(row);
  const [customer, balance] = await Promise.all([findInvoiceCustomer(db, row.customerId), readBalance(db, { customerId: row.customerId, currency: row.currency })]);
  const preview = (issuing: SubscriptionState, planned: PlannedInvoice, period: { start: number; end: number | null }, startingBalance: number) =>
    invoicePreviewObject(
      buildSubscriptionInvoice(issuing, planned, issuing.updatedAt),
      { accountId: row.accountId, subscriptionId: row.id, currency: row.currency, customer, issuedAt: issuing.updatedAt, period },
      startingBalance,
    );

  let updateInvoice: InvoicePreview | null | undefined;
  let left = balance;
  if (input.subscription_update) {
    const at = input.proration_date === undefined ? deps.now().getTime() : prorationDate(state, input.proration_date);
    const changes = await resolveChanges({ db, now: at }, scope, row, input.subscription_update);
    const step = refusedAsApiError(() => update(state, changes, at));
    const billedUntil = periodLine(state)?.periodEndAt ?? null;
    updateInvoice = step.proration.length > 0 ? preview(step.state, prorationInvoice(step.state, step.proration), { start: at, end: billedUntil }, left) : null;
    left = updateInvoice?.ending_balance ?? left;
    // A credit given to the balance is a credit invoice the workflow issues right after the
    // change's own invoice (docs/customer-balance.md), no more than the paid invoices have left
    // to give back: the next cycle draws on it.
    if (step.credit?.to === 'CUSTOMER_BALANCE') left -= creditPartsTotal((await balanceCreditParts(db, row.id, step.credit, { lock: false })).parts);
    state = step.state;
  }
  const cycle = nextCycle(state);
  let nextInvoice: InvoicePreview | null = null;
  if (cycle) {
    // Usage to date: what the meters measured of the period so far, and late events of periods billed before.
    const usage = await usageLinesOf(db, cycle.step.state, cycle.invoice, cycle.at).catch((error: unknown) => {
      if (error instanceof UsageChargeTooLarge) throw new ApiError('USAGE_CHARGE_TOO_LARGE', error.message, error.context);
      throw error;
    });
    const planned = { ...cycle.invoice, lines: [...cycle.invoice.lines, ...usage.lines] };
    nextInvoice = preview(cycle.step.state, planned, { start: cycle.periodStart, end: cycle.step.state.nextCycleAt }, left);
  }
  return { subscription_id: row.id, ...(updateInvoice !== undefined ? { update_invoice: updateInvoice } : {}), next_invoice: nextInvoice };
}

/**
 * `proration_date` as epoch ms: inside the period the subscription is in, from the start of its
 * billed period to (not including) its next billing, where a real update could fall. The bounds
 * are the subscription's state, not the request's form, so a date outside them is a 422 (section
 * 7.1: the request conflicts with the current state), not a 400 of a well-formed body.
 */
function prorationDate(state: SubscriptionState, value: string): number {
  const at = Date.parse(value);
  const start = periodLine(state)?.periodStartAt ?? state.createdAt;
  const context = {
    field: 'proration_date',
    period_start_at: formatDateTime(new Date(start)),
    ...(state.nextCycleAt !== null ? { next_billing_at: formatDateTime(new Date(state.nextCycleAt)) } : {}),
  };
  if (at < start) {
    throw new ApiError('PRORATION_DATE_OUT_OF_PERIOD', `proration_date is before the subscription's current period (${context.period_start_at}).`, context);
  }
  if (state.nextCycleAt !== null && at >= state.nextCycleAt) {
    throw new ApiError('PRORATION_DATE_OUT_OF_PERIOD', `proration_date must come before the next billing (${context.next_billing_at}).`, context);
  }
  return at;
}
