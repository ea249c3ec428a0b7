import { addPeriod, nextBoundaryAfter } from '../../domain/billing-periods';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { DEFAULT_SETTINGS, type Line, type SubscriptionState, type Trial } from '../../domain/subscriptions/state';
import type { EventName } from '../../domain/event-catalogue';
import { withIdempotency } from '../idempotency/with-idempotency';
import { invoiceCustomer } from '../invoices/create';
import { resolveDiscounts } from '../invoices/repository';
import { authorizedProcedure, operation } from '../trpc';
import { checkNewSubscriptionLines, newLines, requireTaxCountry, resolvePrices, subscriptionCollection } from './references';
import { insertSubscription, lockSubscriptionStart, recordSubscriptionEvents } from './repository';
import { createSubscriptionRequest, serializeSubscription, subscriptionObject, type CreateSubscriptionRequest } from './schemas';
import { startSubscriptionWorkflow } from './workflow-client';

function after(field: string, value: number, limit: number, what: string): void {
  if (value <= limit) throw ApiError.validation({ [field]: { type: 'MIN', message: `Must be after ${what}.` } });
}

/** The first state of a subscription: docs/subscriptions.md, "Create". */
function initialTimes(input: CreateSubscriptionRequest, now: number) {
  const startsAt = input.starts_at ? Date.parse(input.starts_at) : null;
  if (startsAt !== null) after('starts_at', startsAt, now, 'now');
  const start = startsAt ?? now;
  let trial: Trial | null = null;
  if (input.trial) {
    const endAt = input.trial.end_at ? Date.parse(input.trial.end_at) : input.trial.period_config ? addPeriod(start, input.trial.period_config) : null;
    if (endAt !== null) after('trial.end_at', endAt, start, 'the start');
    trial = { type: input.trial.type, amount: input.trial.amount ?? 0, startAt: start, endAt, periodConfig: input.trial.period_config ?? null };
  }
  const billingStart = trial ? trial.endAt : start;
  const anchorAt = input.anchor_at ? Date.parse(input.anchor_at) : billingStart;
  const endsAt = input.ends_at ? Date.parse(input.ends_at) : null;
  if (endsAt !== null) after('ends_at', endsAt, billingStart ?? start, trial ? 'the trial' : 'the start');
  return { startsAt, start, trial, billingStart, anchorAt, endsAt };
}

export const createSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/create', {
      summary: 'Create a subscription',
      description:
        'CREATED until starts_at, else TRIALING (FREE trial) or PENDING (first invoice under way, charged or sent by collection_method). In the customer’s channel. Emits SubscriptionCreated (+ SubscriptionTrialActivated). 422: CUSTOMER_NOT_FOUND, PRODUCT_PRICE_NOT_FOUND, CURRENCY_MISMATCH, RECURRING_LINE_ITEM_REQUIRED, BILLING_PERIOD_MISMATCH, PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, PAYMENT_INSTRUMENT_REQUIRED, COUPON_NOT_FOUND, COUPON_CURRENCY_MISMATCH, CUSTOMER_ADDRESS_COUNTRY_REQUIRED (a taxed line for a TAXABLE customer with no address country).',
    }),
  )
  .input(createSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const accountId = ctx.principal.accountId;
        const now = ctx.now().getTime();
        const times = initialTimes(input, now);
        const customer = await invoiceCustomer(tx, ctx, input.customer_id, input.channel_id);
        const resolved = await resolvePrices(
          tx,
          accountId,
          input.line_items.map((line, index) => ({ product_price_id: line.product_price_id, field: `line_items[${index}].product_price_id` })),
          undefined,
        );
        const { currency } = resolved;
        const created = newLines(resolved, input.line_items, now);
        requireTaxCountry(customer, created, 'line_items');
        const period = checkNewSubscriptionLines(created);
        const { collectionMethod, paymentInstrumentId } = await subscriptionCollection(tx, accountId, customer, input);
        const discounts = await resolveDiscounts(tx, accountId, currency, input.discounts ?? []);

        const { startsAt, start, trial, billingStart, anchorAt, endsAt } = times;
        const firstEnd = trial
          ? trial.endAt
          : Math.min(nextBoundaryAfter(anchorAt!, period, billingStart!), endsAt ?? Number.POSITIVE_INFINITY);
        const lineItems = created.map(
          (line): Line => ({
            ...line,
            startedAt: null,
            periodStartAt: start,
            periodEndAt: line.billingType === 'RECURRING' ? firstEnd : null,
            billedAt: null,
            createdAt: now,
            updatedAt: now,
          }),
        );
        const status = startsAt !== null ? 'CREATED' : trial?.type === 'FREE' ? 'TRIALING' : 'PENDING';
        const state: SubscriptionState = {
          id: newId('subscription', now),
          accountId,
          channelId: customer.channelId,
          customerId: customer.id,
          currency,
          status,
          paymentInstrumentId,
          collectionMethod,
          latestInvoiceId: null,
          description: input.description ?? null,
          merchantReference: input.merchant_reference ?? null,
          metadata: input.metadata ?? null,
          discounts,
          trial,
          cancellation: null,
          settings: { ...DEFAULT_SETTINGS, ...input.settings },
          startScheduledAt: startsAt,
          startedAt: startsAt === null ? now : null,
          anchorAt,
          endsAt,
          nextCycleAt: trial?.type === 'FREE' ? trial.endAt : start,
          cycleCount: 0,
          version: 1,
          createdAt: now,
          updatedAt: now,
          lineItems,
        };
        await lockSubscriptionStart(tx, state.id);
        const row = await insertSubscription(tx, state);
        const events: EventName[] = status === 'TRIALING' ? ['SubscriptionCreated', 'SubscriptionTrialActivated'] : ['SubscriptionCreated'];
        await recordSubscriptionEvents(tx, row, events, new Date(now));
        await startSubscriptionWorkflow(ctx.temporal, state.id);
        return serializeSubscription(row);
      }),
    ),
  );
