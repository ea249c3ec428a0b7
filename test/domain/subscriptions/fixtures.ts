import type { Line, SubscriptionState } from '../../../domain/subscriptions/state';

export const at = (iso: string) => Date.parse(iso);
export const MONTHLY = { value: 1, unit: 'MONTH' } as const;
export const VAT = { categoryId: null, mode: 'EXCLUSIVE', rate: 20 } as const;

/** A monthly line of `amount` minor units, billed for January 2026 unless told otherwise. */
export function line(id: string, overrides: Partial<Line> = {}): Line {
  return {
    id,
    productId: `prod_${id}`,
    productPriceId: `price_${id}`,
    productName: `Plan ${id}`,
    productDescription: null,
    billingType: 'RECURRING',
    amount: 3_100,
    quantity: 1,
    billingPeriod: MONTHLY,
    tax: null,
    startedAt: at('2026-01-01T00:00:00Z'),
    periodStartAt: at('2026-01-01T00:00:00Z'),
    periodEndAt: at('2026-02-01T00:00:00Z'),
    billedAt: null,
    createdAt: at('2026-01-01T00:00:00Z'),
    updatedAt: at('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

/** An ACTIVE monthly subscription anchored on 2026-01-01, its January invoiced, its next cycle on 1 February. */
export function subscription(overrides: Partial<SubscriptionState> = {}): SubscriptionState {
  return {
    id: 'sub_1',
    accountId: 'acc_1',
    channelId: 'ch_1',
    customerId: 'cust_1',
    currency: 'EUR',
    status: 'ACTIVE',
    paymentInstrumentId: 'pi_1',
    collectionMethod: 'CHARGE_AUTOMATICALLY',
    latestInvoiceId: null,
    description: null,
    merchantReference: null,
    metadata: null,
    discounts: [],
    trial: null,
    cancellation: null,
    settings: { on_dunning_exhausted: 'CANCEL' },
    startScheduledAt: null,
    startedAt: at('2026-01-01T00:00:00Z'),
    anchorAt: at('2026-01-01T00:00:00Z'),
    endsAt: null,
    nextCycleAt: at('2026-02-01T00:00:00Z'),
    cycleCount: 1,
    version: 3,
    createdAt: at('2026-01-01T00:00:00Z'),
    updatedAt: at('2026-01-01T00:00:00Z'),
    lineItems: [line('a')],
    ...overrides,
  };
}

/** The code of the refusal `run` throws (SubscriptionRefused or ApiError). */
export function refusal(run: () => unknown): { code: string; context: unknown } {
  try {
    run();
  } catch (error) {
    const { code, context } = error as { code: string; context: unknown };
    return { code, context };
  }
  throw new Error('expected a refusal');
}
