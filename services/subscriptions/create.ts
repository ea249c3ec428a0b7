import type { Client } from '@temporalio/client';
import { newId } from '../../domain/ids';
import { initialState, newSubscriptionPeriod, scheduleOf } from '../../domain/subscriptions/initial-state';
import type { Prisma } from '../../prisma/client';
import { resolveDiscounts } from '../invoices/repository';
import { insertSubscription, lockSubscriptionStart } from './repository';
import type { CreateSubscriptionInput } from './requests';
import type { SubscriptionRow } from './subscription-row';
import { newLines, requireTaxCountry, resolvePrices, subscriptionCollection } from './references';
import { refusedAsApiError, startSubscriptionWorkflow } from './workflow-client';

export interface CreateSubscriptionDeps {
  /** The transaction the row, its events and the workflow start share. */
  db: Prisma.TransactionClient;
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

/**
 * subscriptions/create (docs/subscriptions.md, "Create"): the request's schedule, prices,
 * collection and coupons resolved; the first state decided by the domain (initialState); the
 * row and its events written, and the workflow that owns it started in the same transaction.
 * Refuses with ApiError.
 */
export async function createSubscription(
  { db, temporal, now }: CreateSubscriptionDeps,
  scope: { accountId: string },
  customer: SubscribingCustomer,
  input: CreateSubscriptionInput,
): Promise<SubscriptionRow> {
  const { accountId } = scope;
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
  const resolved = await resolvePrices(
    db,
    accountId,
    input.line_items.map((line, index) => ({ product_price_id: line.product_price_id, field: `line_items[${index}].product_price_id` })),
    undefined,
  );
  const lines = newLines(resolved, input.line_items, now);
  requireTaxCountry(customer, lines, 'line_items');
  refusedAsApiError(() => newSubscriptionPeriod(lines));
  const { collectionMethod, paymentInstrumentId } = await subscriptionCollection(db, accountId, customer, input);
  const discounts = input.discounts?.length ? await resolveDiscounts(db, accountId, resolved.currency, input.discounts) : [];

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
  await lockSubscriptionStart(db, state.id);
  // The run's first read waits on that lock until the commit, so the start need not wait for the
  // writes: its round trip to Temporal overlaps theirs. Either failing rolls the create back.
  const [row] = await Promise.all([insertSubscription(db, state, events), startSubscriptionWorkflow(temporal, state)]);
  return row;
}
