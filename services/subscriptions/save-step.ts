import { ApiError } from '../../domain/errors';
import type { EventName } from '../../domain/event-catalogue';
import type { PlannedInvoice } from '../../domain/subscriptions/billing';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import type { Database, Prisma } from '../../prisma/client';
import { finalizationFailed, FinalizationRefused, finalizeDraft } from '../invoices/finalize';
import type { InvoiceRow } from '../invoices/invoice-object';
import { createInvoiceRecord, findInvoiceCustomer } from '../invoices/repository';
import { UsageChargeTooLarge } from '../../domain/usage/pricing';
import { buildSubscriptionInvoice } from './invoice-draft';
import { recordUsageBillings, usageLinesOf } from './usage-lines';
import { invoiceKeyPart, subscriptionInvoiceId } from './invoice-id';
import { readRows, sqlStatement } from '../../prisma/statements';
import { lockSubscription, writeSubscription } from './repository';
import { serializeSubscription, type SubscriptionObject } from './subscription-object';
import type { SubscriptionRow } from './subscription-row';

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

/**
 * One state change of the workflow, in one transaction: the invoice it issues (created and
 * finalized, found instead when it exists), the row and its lines, and its events. A state
 * whose version the row already holds is not written again, so a retry records nothing twice.
 */
export async function saveSubscriptionStep(deps: { db: Database }, input: SaveInput): Promise<SaveResult> {
  const { issued: _issued, row: _row, ...saved } = await deps.db.$transaction((tx) => saveSubscriptionStepIn(tx, input));
  return saved;
}

/**
 * saveSubscriptionStep inside a transaction of the caller's, committed with whatever else it
 * holds. `issued` is the invoice's finalized row when this call created it (not when a retry
 * found it): no other transaction can see that invoice until this one commits. `row` is the
 * subscription's row as it stands after the call; handed back as `known`, it spares the next
 * step's read while the row is unchanged (lockSubscription).
 */
export async function saveSubscriptionStepIn(
  tx: Prisma.TransactionClient,
  input: SaveInput,
  known?: SubscriptionRow,
): Promise<SaveResult & { issued?: InvoiceRow; row: SubscriptionRow }> {
  const { state } = input;
  const now = new Date(state.updatedAt);
  const stored = await lockSubscription(tx, state.id, known);
  if (!stored) throw new ApiError('SUBSCRIPTION_MISSING', `Subscription ${state.id} has no row.`);
  let invoice: SaveResult['invoice'];
  let issued: InvoiceRow | undefined;
  let written = state;
  if (input.invoice) {
    let id = subscriptionInvoiceId(state.id, input.invoice.key, state.updatedAt);
    // The invoice commits with the version that issues it: only a row already at that version (a
    // retry, or a write overtaken by a newer one) can have it. Found by its key, not its whole id:
    // a workflow task retried after its worker died (a local activity's work committed, its
    // result lost) decides the same step at a later workflow time, so the time part differs.
    const existing = stored.version >= state.version ? await findIssuedByKey(tx, state.id, id) : null;
    if (existing) {
      id = existing.id;
      invoice = existing;
    } else {
      const customer = await findInvoiceCustomer(tx, state.customerId);
      // A usage line too large for an invoice is a refusal the merchant must resolve, as a
      // finalization refusal is: the workflow tries the cycle again daily instead of retrying at once.
      const usage = await usageLinesOf(tx, state, input.invoice, state.updatedAt).catch((error: unknown) => {
        if (error instanceof UsageChargeTooLarge) throw finalizationFailed(id, [{ code: 'USAGE_CHARGE_TOO_LARGE', message: error.message }]);
        throw error;
      });
      const built = usageInvoice(id, () => buildSubscriptionInvoice(state, { ...input.invoice!, lines: [...input.invoice!.lines, ...usage.lines] }, state.updatedAt), usage.lines.length > 0);
      const { row } = await createInvoiceRecord(tx, {
        id,
        accountId: state.accountId,
        customer,
        currency: state.currency,
        billingReason: built.billingReason,
        subscriptionId: state.id,
        state: built.draft,
        amounts: built.amounts,
        now,
      });
      await recordUsageBillings(tx, state.id, id, usage.billings, now);
      try {
        const finalized = await finalizeDraft(tx, row, { now, instrumentChecked: false, customer });
        invoice = { id, status: finalized.row.status };
        issued = finalized.row;
      } catch (error) {
        if (error instanceof FinalizationRefused) throw finalizationFailed(id, error.reasons);
        throw error;
      }
    }
    written = { ...state, latestInvoiceId: id };
  }
  const row = await writeSubscription(tx, stored, written, input.events);
  return { subscription: serializeSubscription(row), ...(invoice ? { invoice } : {}), ...(issued ? { issued } : {}), row };
}

/**
 * Usage can make an invoice larger than any invoice may be: refused as a finalization is, so the
 * workflow tries the cycle again daily rather than failing for good on a validation error.
 */
function usageInvoice<T>(invoiceId: string, build: () => T, billsUsage: boolean): T {
  try {
    return build();
  } catch (error) {
    if (billsUsage && error instanceof ApiError && error.code === 'VALIDATION') {
      throw finalizationFailed(invoiceId, [{ code: 'USAGE_CHARGE_TOO_LARGE', message: error.message }]);
    }
    throw error;
  }
}

/** One indexed read (invoices by subscription): a subscription has one invoice per key. */
const issuedByKey = sqlStatement(
  'subscriptions.invoice_by_key',
  'SELECT id, status FROM invoices WHERE subscription_id = $1 AND right(id, 16) = $2 LIMIT 1',
);

async function findIssuedByKey(tx: Prisma.TransactionClient, subscriptionId: string, id: string): Promise<{ id: string; status: string } | null> {
  const [found] = await readRows<{ id: string; status: string }>(tx, issuedByKey, [subscriptionId, invoiceKeyPart(id)]);
  return found ?? null;
}
