import { billCycle, invoiceTerms } from '../../../domain/subscriptions/billing';
import { at, line, refusal, subscription, VAT } from './fixtures';

describe('billCycle', () => {
  it('bills a full period at the unit price and moves the next cycle to the next boundary', () => {
    const state = subscription({ lineItems: [line('a', { quantity: 2, tax: VAT })] });
    const { step, invoice } = billCycle(state, at('2026-02-01T00:00:00Z'), at('2026-02-01T00:00:05Z'));
    expect(invoice).toEqual({
      kind: 'cycle',
      key: 'cycle/2',
      billingReason: 'SUBSCRIPTION_CYCLE',
      lines: [{ productPriceId: 'price_a', description: 'Plan a (2026-02-01 – 2026-03-01)', amount: 3_100, quantity: 2, tax: VAT }],
    });
    expect(step.events).toEqual([]);
    expect(step.state).toMatchObject({ status: 'ACTIVE', cycleCount: 2, version: 4, nextCycleAt: at('2026-03-01T00:00:00Z'), updatedAt: at('2026-02-01T00:00:05Z') });
    expect(step.state.lineItems[0]).toMatchObject({ periodStartAt: at('2026-02-01T00:00:00Z'), periodEndAt: at('2026-03-01T00:00:00Z') });
  });

  it('prorates a first period that starts off the anchor by the seconds it covers, half up', () => {
    // 16 of January's 31 days: 3100 × 16 / 31 = 1600; 1000 × 16 / 31 = 516.13 → 516.
    const state = subscription({
      status: 'PENDING',
      cycleCount: 0,
      startedAt: null,
      anchorAt: at('2026-02-01T00:00:00Z'),
      nextCycleAt: at('2026-01-16T00:00:00Z'),
      lineItems: [line('a', { startedAt: null }), line('b', { amount: 1_000, startedAt: null })],
    });
    const { step, invoice } = billCycle(state, at('2026-01-16T00:00:00Z'), at('2026-01-16T00:00:00Z'));
    expect(invoice.billingReason).toBe('SUBSCRIPTION_CREATE');
    expect(invoice.lines.map((l) => [l.description, l.amount, l.quantity])).toEqual([
      ['Plan a × 1 (2026-01-16 – 2026-02-01, prorated)', 1_600, 1],
      ['Plan b × 1 (2026-01-16 – 2026-02-01, prorated)', 516, 1],
    ]);
    expect(step.state).toMatchObject({ status: 'PENDING', startedAt: at('2026-01-16T00:00:00Z'), nextCycleAt: at('2026-02-01T00:00:00Z') });
  });

  it('cuts the last period at ends_at and prorates it', () => {
    // 10 of February's 28 days: 3100 × 10 / 28 = 1107.14 → 1107.
    const state = subscription({ endsAt: at('2026-02-11T00:00:00Z') });
    const { step, invoice } = billCycle(state, at('2026-02-01T00:00:00Z'), at('2026-02-01T00:00:00Z'));
    expect(invoice.lines[0]).toMatchObject({ amount: 1_107, quantity: 1, description: 'Plan a × 1 (2026-02-01 – 2026-02-11, prorated)' });
    expect(step.state.nextCycleAt).toBe(at('2026-02-11T00:00:00Z'));
  });

  it('invoices a PAID trial first, for its amount, untaxed, with the trial end as the next cycle', () => {
    const state = subscription({
      status: 'CREATED',
      cycleCount: 0,
      startedAt: null,
      trial: { type: 'PAID', amount: 500, startAt: at('2026-01-01T00:00:00Z'), endAt: at('2026-01-15T00:00:00Z'), periodConfig: null },
    });
    const { step, invoice } = billCycle(state, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'));
    expect(invoice).toEqual({
      kind: 'trial',
      key: 'cycle/1',
      billingReason: 'SUBSCRIPTION_CREATE',
      lines: [{ productPriceId: null, description: 'Trial 2026-01-01 – 2026-01-15', amount: 500, quantity: 1, tax: null }],
    });
    expect(step.state).toMatchObject({ status: 'PENDING', nextCycleAt: at('2026-01-15T00:00:00Z'), cycleCount: 1 });
  });

  it('bills a ONE_TIME line once, on the first invoice after it was added', () => {
    const setup = line('s', { billingType: 'ONE_TIME', billingPeriod: null, amount: 2_500, periodEndAt: null, startedAt: null });
    const first = billCycle(subscription({ lineItems: [line('a'), setup] }), at('2026-02-01T00:00:00Z'), at('2026-02-01T00:00:00Z'));
    expect(first.invoice.lines.map((l) => [l.description, l.amount])).toEqual([
      ['Plan a (2026-02-01 – 2026-03-01)', 3_100],
      ['Plan s', 2_500],
    ]);
    expect(first.step.state.lineItems[1]!.billedAt).toBe(at('2026-02-01T00:00:00Z'));
    const second = billCycle(first.step.state, at('2026-03-01T00:00:00Z'), at('2026-03-01T00:00:00Z'));
    expect(second.invoice.lines.map((l) => l.description)).toEqual(['Plan a (2026-03-01 – 2026-04-01)']);
  });

  it('is refused in a status that is not billed', () => {
    expect(refusal(() => billCycle(subscription({ status: 'UNPAID' }), 0, 0))).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'UNPAID' } });
  });
});

describe('invoiceTerms', () => {
  it('charges automatically with no due date, or sends the invoice due days_until_due days later (30 by default)', () => {
    const issued = at('2026-01-31T12:00:00Z');
    expect(invoiceTerms(subscription(), issued)).toEqual({ collectionMethod: 'CHARGE_AUTOMATICALLY', dueAt: null });
    expect(invoiceTerms(subscription({ collectionMethod: 'SEND_INVOICE' }), issued)).toEqual({ collectionMethod: 'SEND_INVOICE', dueAt: at('2026-03-02T12:00:00Z') });
    expect(invoiceTerms(subscription({ collectionMethod: 'SEND_INVOICE', settings: { on_dunning_exhausted: 'CANCEL', days_until_due: 7 } }), issued)).toEqual({
      collectionMethod: 'SEND_INVOICE',
      dueAt: at('2026-02-07T12:00:00Z'),
    });
  });
});
