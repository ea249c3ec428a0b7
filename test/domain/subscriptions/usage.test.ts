import { billCycle, finalUsage } from '../../../domain/subscriptions/billing';
import { cancelNow } from '../../../domain/subscriptions/cancellation';
import { reactivate, restore } from '../../../domain/subscriptions/restore';
import { nextDue } from '../../../domain/subscriptions/schedule';
import { update } from '../../../domain/subscriptions/update';
import { at, line, refusal, subscription } from './fixtures';

/** Usage lines in the subscription's steps (docs/usage.md, "Subscriptions and invoices"). */

const HOUR = 3_600_000;
const JAN = at('2026-01-01T00:00:00Z');
const FEB = at('2026-02-01T00:00:00Z');
const MAR = at('2026-03-01T00:00:00Z');
const usage = (overrides: Parameters<typeof line>[1] = {}) => line('u', { billingType: 'USAGE', amount: 0, ...overrides });
const seats = line('s');

describe('billCycle with usage lines', () => {
  it('the first cycle of usage alone bills one line of 0 and starts measuring', () => {
    const state = subscription({ status: 'PENDING', cycleCount: 0, nextCycleAt: JAN, lineItems: [usage({ startedAt: null, periodEndAt: null })] });
    const { step, invoice } = billCycle(state, JAN, JAN);
    expect(invoice.lines).toEqual([expect.objectContaining({ amount: 0, quantity: 1, productPriceId: 'price_u' })]);
    expect(invoice.usage).toBeUndefined();
    expect(step.state.lineItems[0]).toMatchObject({ startedAt: JAN, periodStartAt: JAN, periodEndAt: FEB });
  });

  it('a later cycle bills the fixed lines ahead and the period that ended in arrears', () => {
    const state = subscription({ cycleCount: 1, nextCycleAt: FEB, lineItems: [seats, usage()] });
    const { step, invoice } = billCycle(state, FEB, FEB + HOUR);
    expect(invoice.lines.map((l) => l.productPriceId)).toEqual(['price_s']);
    expect(invoice.usage).toEqual([{ productPriceId: 'price_u', productName: 'Plan u', start: JAN, end: FEB, tax: null }]);
    expect(step.state.lineItems[1]).toMatchObject({ periodStartAt: FEB, periodEndAt: MAR });
  });
});

describe('nextDue waits out the usage grace', () => {
  it('an hour after the boundary by default, at the boundary before usage was measured', () => {
    expect(nextDue(subscription({ nextCycleAt: FEB, lineItems: [seats, usage()] }))).toEqual({ kind: 'bill', at: FEB + HOUR });
    expect(nextDue(subscription({ nextCycleAt: FEB, settings: { on_dunning_exhausted: 'CANCEL', usage_grace_minutes: 5 }, lineItems: [usage()] }))).toEqual({ kind: 'bill', at: FEB + 5 * 60_000 });
    expect(nextDue(subscription({ nextCycleAt: FEB, lineItems: [seats, usage({ startedAt: null })] }))).toEqual({ kind: 'bill', at: FEB });
    expect(nextDue(subscription({ nextCycleAt: FEB, lineItems: [seats] }))).toEqual({ kind: 'bill', at: FEB });
  });

  it('at the boundary when the subscription expires inside the grace, so its fixed lines still bill up to the end', () => {
    expect(nextDue(subscription({ nextCycleAt: FEB, endsAt: FEB + HOUR / 2, lineItems: [seats, usage()] }))).toEqual({ kind: 'bill', at: FEB });
    expect(nextDue(subscription({ nextCycleAt: FEB, endsAt: FEB + 2 * HOUR, lineItems: [seats, usage()] }))).toEqual({ kind: 'bill', at: FEB + HOUR });
  });
});

describe('finalUsage', () => {
  it('bills the usage up to a cancellation, once the grace has passed, keyed by the end', () => {
    const end = at('2026-01-20T10:00:00Z');
    const cancelled = cancelNow(subscription({ lineItems: [seats, usage()] }), end, 'CANCELLATION_REQUESTED', null).state;
    const due = finalUsage(cancelled, end + HOUR)!;
    expect(due.at).toBe(end + HOUR);
    expect(due.invoice).toMatchObject({ key: `usage/final/${end}`, lines: [], usage: [{ productPriceId: 'price_u', start: JAN, end }] });
    // Closed: it bills once.
    expect(finalUsage(due.step.state, end + 2 * HOUR)).toBeNull();
    expect(finalUsage(cancelNow(subscription({ lineItems: [seats] }), end, 'CANCELLATION_REQUESTED', null).state, end)).toBeNull();
  });

  it('prices the period before an unbilled boundary and the part after it as two periods', () => {
    const end = FEB + HOUR / 2;
    const cancelled = cancelNow(subscription({ nextCycleAt: FEB, lineItems: [seats, usage()] }), end, 'CANCELLATION_REQUESTED', null).state;
    expect(finalUsage(cancelled, end + HOUR)!.invoice.usage!.map((u) => [u.start, u.end])).toEqual([
      [JAN, FEB],
      [FEB, end],
    ]);
  });
});

describe('updates of usage lines', () => {
  const price = { productId: 'prod_v', productPriceId: 'price_v', productName: 'Calls', productDescription: null, billingType: 'USAGE' as const, amount: 0, billingPeriod: { value: 1, unit: 'MONTH' as const } };
  const now = at('2026-01-10T00:00:00Z');

  it('a usage line added while ACTIVE measures from the change; while TRIALING, from the first cycle', () => {
    const added = update(subscription({ lineItems: [seats] }), { addLines: [{ id: 'slit_v', ...price, quantity: 1, tax: null }] }, now).state.lineItems[1]!;
    expect(added).toMatchObject({ startedAt: now, periodStartAt: now, periodEndAt: FEB });
    const trial = { type: 'FREE' as const, amount: 0, startAt: JAN, endAt: FEB, periodConfig: null };
    const inTrial = update(subscription({ status: 'TRIALING', trial, lineItems: [seats] }), { addLines: [{ id: 'slit_v', ...price, quantity: 1, tax: null }] }, now).state.lineItems[1]!;
    expect(inTrial.startedAt).toBeNull();
  });

  it('one line per usage price; a usage line that measured stays as it is', () => {
    expect(refusal(() => update(subscription({ lineItems: [seats, usage({ productPriceId: 'price_v' })] }), { addLines: [{ id: 'slit_v', ...price, quantity: 1, tax: null }] }, now))).toMatchObject({
      code: 'DUPLICATE_USAGE_PRICE',
    });
    expect(refusal(() => update(subscription({ lineItems: [seats, usage()] }), { removeLineIds: ['u'] }, now))).toMatchObject({ code: 'USAGE_LINE_ITEM_LOCKED', context: { field: 'line_items.remove[0]' } });
    expect(refusal(() => update(subscription({ lineItems: [seats, usage()] }), { updateLines: [{ id: 'u', quantity: 3 }] }, now))).toMatchObject({ code: 'USAGE_LINE_ITEM_LOCKED' });
    // Not measured yet: it can go.
    expect(update(subscription({ lineItems: [seats, usage({ startedAt: null })] }), { removeLineIds: ['u'] }, now).state.lineItems).toHaveLength(1);
  });
});

describe('billing resumed', () => {
  it('a restore measures usage from the restore; a reactivation keeps what was used while UNPAID', () => {
    const end = at('2026-01-20T00:00:00Z');
    const now = at('2026-03-10T00:00:00Z');
    const cancelled = { ...cancelNow(subscription({ lineItems: [seats, usage()] }), end, 'CANCELLATION_REQUESTED', null).state, lineItems: [seats, usage({ periodStartAt: end, periodEndAt: end })] };
    expect(restore(cancelled, { expiresAt: null, discount: null }, now).state.lineItems[1]).toMatchObject({ periodStartAt: now });
    const unpaid = subscription({ status: 'UNPAID', nextCycleAt: FEB, lineItems: [seats, usage()] });
    expect(reactivate(unpaid, now).state.lineItems[1]).toMatchObject({ periodStartAt: JAN });
  });
});
