import { prorationInvoice } from '../../../domain/subscriptions/proration';
import { update } from '../../../domain/subscriptions/update';
import { at, line, MONTHLY, refusal, subscription, VAT } from './fixtures';

// 15 of January's 31 days are left.
const NOW = at('2026-01-17T00:00:00Z');
const yearlyLine = { id: 'y', productId: 'prod_y', productPriceId: 'price_y', productName: 'Yearly', productDescription: null, billingType: 'RECURRING' as const, amount: 10_000, quantity: 1, billingPeriod: { value: 1, unit: 'YEAR' as const }, tax: null };

describe('update', () => {
  it('prorates a quantity raised mid-period: the new part less the old, for the seconds left, invoiced at once', () => {
    // old 3100 × 15/31 = 1500, new 6200 × 15/31 = 3000.
    const result = update(subscription(), { updateLines: [{ id: 'a', quantity: 2 }] }, NOW);
    expect(result.proration).toEqual([{ amount: 1_500, description: 'Proration of 1 line item change (2026-01-17 – 2026-02-01)', tax: null }]);
    expect(result.credit).toBeNull();
    expect(result.events).toEqual(['SubscriptionUpdated']);
    expect(result.state.lineItems[0]).toMatchObject({ quantity: 2, updatedAt: NOW });
    expect(prorationInvoice(result.state, result.proration)).toEqual({
      kind: 'proration',
      key: 'proration/4',
      billingReason: 'SUBSCRIPTION_CYCLE',
      lines: [{ productPriceId: null, description: 'Proration of 1 line item change (2026-01-17 – 2026-02-01)', amount: 1_500, quantity: 1, tax: null }],
    });
  });

  it('credits a removed line’s unused part, half up, per tax treatment', () => {
    // 1000 × 15/31 = 483.87 → 484, under the line's VAT.
    const state = subscription({ lineItems: [line('a'), line('b', { amount: 1_000, tax: VAT })] });
    const result = update(state, { removeLineIds: ['b'] }, NOW);
    expect(result.proration).toEqual([]);
    expect(result.credit).toEqual({ amount: 484, description: 'Proration credit of 1 line item change (2026-01-17 – 2026-02-01)', parts: [{ amount: 484, tax: VAT }] });
    expect(result.state.lineItems.map((l) => l.id)).toEqual(['a']);
  });

  it('nets per tax treatment: a change worth nothing invoices nothing, a taxed raise is invoiced under its tax', () => {
    const state = subscription({ lineItems: [line('a'), line('b', { amount: 1_000, tax: VAT })] });
    const result = update(state, { updateLines: [{ id: 'a', tax: null }, { id: 'b', quantity: 3 }] }, NOW);
    // a is rewritten to what it was: its credit and charge net to 0. b: 3000 × 15/31 = 1451.6 → 1452, less 484 = 968.
    expect(result.proration).toEqual([
      { amount: 968, description: 'Proration of 1 line item change (2026-01-17 – 2026-02-01)', tax: VAT },
    ]);
    expect(result.credit).toBeNull();
  });

  it('adds a line for the rest of the period when ACTIVE; prorates nothing outside ACTIVE', () => {
    const added = { ...yearlyLine, id: 'n', productPriceId: 'price_n', amount: 620, billingPeriod: MONTHLY };
    const active = update(subscription(), { addLines: [added] }, NOW);
    // 620 × 15/31 = 300.
    expect(active.proration.map((p) => p.amount)).toEqual([300]);
    expect(active.state.lineItems[1]).toMatchObject({ id: 'n', periodStartAt: NOW, periodEndAt: at('2026-02-01T00:00:00Z'), billedAt: null, startedAt: null });

    const pending = update(subscription({ status: 'PENDING' }), { addLines: [added] }, NOW);
    expect(pending.proration).toEqual([]);
    expect(pending.state.lineItems[1]).toMatchObject({ periodStartAt: at('2026-01-01T00:00:00Z'), periodEndAt: at('2026-02-01T00:00:00Z') });
  });

  it('ends a trial: PENDING, billed from now', () => {
    const trialing = subscription({ status: 'TRIALING', trial: { type: 'FREE', amount: 0, startAt: at('2026-01-01T00:00:00Z'), endAt: null, periodConfig: null } });
    const { state } = update(trialing, { endTrial: true }, NOW);
    expect(state).toMatchObject({ status: 'PENDING', nextCycleAt: NOW, trial: { endAt: NOW } });
  });

  it('refuses what the lines or the status cannot take', () => {
    expect(refusal(() => update(subscription(), { removeLineIds: ['a'] }, NOW)).code).toBe('RECURRING_LINE_ITEM_REQUIRED');
    expect(refusal(() => update(subscription(), { removeLineIds: ['zz'] }, NOW))).toEqual({ code: 'LINE_ITEM_NOT_FOUND', context: { field: 'line_items.remove[0]', id: 'zz' } });
    expect(refusal(() => update(subscription(), { addLines: [yearlyLine] }, NOW))).toEqual({
      code: 'BILLING_PERIOD_MISMATCH',
      context: { product_price_id: 'price_y', billing_period_config: MONTHLY },
    });
    const many = Array.from({ length: 20 }, (_, i) => ({ ...yearlyLine, id: `n${i}`, billingPeriod: MONTHLY }));
    expect(refusal(() => update(subscription(), { addLines: many }, NOW))).toEqual({ code: 'TOO_MANY_LINE_ITEMS', context: { max: 20 } });
    expect(refusal(() => update(subscription(), { endTrial: true }, NOW))).toEqual({ code: 'TRIAL_NOT_ACTIVE', context: { status: 'ACTIVE' } });
    expect(refusal(() => update(subscription({ status: 'UNPAID' }), { description: 'x' }, NOW)).code).toBe('INCOMPATIBLE_STATUS');
  });
});
