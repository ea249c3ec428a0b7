import type { Client } from '@temporalio/client';
import { newId } from '../../domain/ids';
import { initialState, newSubscriptionPeriod, scheduleOf } from '../../domain/subscriptions/initial-state';
import type { Database, Prisma } from '../../prisma/client';
import { resolveDiscounts } from '../invoices/repository';
import { insertSubscription, lockSubscriptionStart } from './repository';
import type { CreateSubscriptionInput } from './requests';
import type { SubscriptionRow } from './subscription-row';
import { findPrices, newLines, requireActiveMeters, requireTaxCountry, resolveFoundPrices, subscriptionCollection } from './references';
import { refusedAsApiError, startSubscriptionWorkflow } from './workflow-client';

export interface CreateSubscriptionDeps {
  /** The pool: the request's references are read here, before the transaction opens. */
  db: Database;
  /** Opens the transaction the row, its events and the workflow start share. */
  transaction: <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) => Promise<T>;
  temporal: Client;
  now: number;
}

/** The customer the subscription is for, already checked visible to the caller. */
export interface SubscribingCustomer {
  id: string;
  channelId: string;
  tax: unknown;
  address: unknown;
  configuration: unknown;
}

const parsed = (value: string | undefined) => (value ? Date.parse(value) : null);

/** Awaited later, in the order the checks are made: a refusal found early waits its turn, unreported meanwhile. */
function pending<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}

/**
 * subscriptions/create (docs/subscriptions.md, "Create"): the request's schedule, prices,
 * collection and coupons resolved; the first state decided by the domain (initialState); the
 * row and its events written, and the workflow that owns it started in the same transaction.
 * Refuses with ApiError.
 *
 * The references are plain reads (no lock), so they are made on the pool, side by side, before
 * the transaction opens: it holds a connection only for the start lock, the insert and the
 * start. Reading them inside it would take a second connection while holding the first, which
 * a full pool turns into a wait that never ends. Their refusals come in the order of the checks
 * whichever read answers first.
 */
export async function createSubscription(
  { db, transaction, temporal, now }: CreateSubscriptionDeps,
  scope: { accountId: string },
  readCustomer: () => Promise<SubscribingCustomer>,
  input: CreateSubscriptionInput,
): Promise<SubscriptionRow> {
  const { accountId } = scope;
  // Asked first: its refusal of a channel the key cannot access (403) precedes the schedule's 400
  // (docs/errors.md, order of checks); the customer's 422 waits below, after the schedule's.
  const customerRead = pending(readCustomer());
  const schedule = scheduleOf(
    {
      startsAt: parsed(input.starts_at),
      trial: input.trial
        ? { type: input.trial.type, amount: input.trial.amount ?? null, endAt: parsed(input.trial.end_at), periodConfig: input.trial.period_config ?? null }
        : null,
      anchorAt: parsed(input.anchor_at),
      endsAt: parsed(input.ends_at),
    },
    now,
  );
  const requested = input.line_items.map((line, index) => ({ product_price_id: line.product_price_id, field: `line_items[${index}].product_price_id` }));
  const pricesRead = pending(findPrices(db, accountId, requested.map((r) => r.product_price_id)));
  // A named instrument is checked against the customer's id, which the request gives: only the
  // customer's default needs the customer's row first.
  const collectionRead = pending(
    input.payment_instrument_id
      ? subscriptionCollection(db, accountId, { id: input.customer_id, configuration: null }, input)
      : customerRead.then((customer) => subscriptionCollection(db, accountId, customer, input)),
  );
  // Unlocked, to refuse an archived meter in its place among the checks; the transaction checks again under the lock.
  const metersRead = pending(pricesRead.then((byId) => requireActiveMeters(db, requested, byId, { lock: false })));
  const discountsRead = pending(
    pricesRead.then((byId) => {
      const { currency } = resolveFoundPrices(byId, requested, undefined);
      return input.discounts?.length ? resolveDiscounts(db, accountId, currency, input.discounts) : [];
    }),
  );

  const customer = await customerRead;
  const byId = await pricesRead;
  const resolved = resolveFoundPrices(byId, requested, undefined);
  await metersRead;
  const lines = newLines(resolved, input.line_items, now);
  requireTaxCountry(customer, lines, 'line_items');
  refusedAsApiError(() => newSubscriptionPeriod(lines));
  const { collectionMethod, paymentInstrumentId } = await collectionRead;
  const discounts = await discountsRead;

  const { state, events } = initialState(
    {
      id: newId('subscription', now),
      accountId,
      channelId: customer.channelId,
      customerId: customer.id,
      currency: resolved.currency,
      paymentInstrumentId,
      collectionMethod,
      description: input.description ?? null,
      merchantReference: input.merchant_reference ?? null,
      metadata: input.metadata ?? null,
      discounts,
      settings: input.settings ?? {},
      lines,
    },
    schedule,
    now,
  );
  return transaction(async (tx) => {
    await lockSubscriptionStart(tx, state.id);
    // Held until the commit: an archive of a USAGE price's meter waits for this subscription.
    await requireActiveMeters(tx, requested, byId, { lock: true });
    // The run's first read waits on the start lock until the commit, so the start need not wait
    // for the writes: its round trip to Temporal overlaps theirs. Either failing rolls the create back.
    const [row] = await Promise.all([insertSubscription(tx, state, events), startSubscriptionWorkflow(temporal, state)]);
    return row;
  });
}
