import { initialState, scheduleOf, type NewSubscription } from '../../../domain/subscriptions/initial-state';
import { at, MONTHLY, refusal } from './fixtures';

const NOW = at('2026-01-16T00:00:00Z');
const none = { startsAt: null, trial: null, anchorAt: null, endsAt: null };
const plan = { id: 'slit_a', productId: 'prod_a', productPriceId: 'price_a', productName: 'Plan', productDescription: null, billingType: 'RECURRING' as const, amount: 3_100, quantity: 1, billingPeriod: MONTHLY, tax: null };
const setup = { ...plan, id: 'slit_s', productPriceId: 'price_s', billingType: 'ONE_TIME' as const, billingPeriod: null, amount: 2_500 };
const subscription: NewSubscription = {
  id: 'sub_1',
  accountId: 'acc_1',
  channelId: 'ch_1',
  customerId: 'cust_1',
  currency: 'EUR',
  paymentInstrumentId: 'pi_1',
  collectionMethod: 'CHARGE_AUTOMATICALLY',
  description: null,
  merchantReference: null,
  metadata: null,
  discounts: [],
  settings: {},
  lines: [plan, setup],
};

describe('scheduleOf', () => {
  it('starts now, anchored on the start, unless told otherwise', () => {
    expect(scheduleOf(none, NOW)).toEqual({ startsAt: null, start: NOW, trial: null, billingStart: NOW, anchorAt: NOW, endsAt: null });
  });

  it('a trial given as a period ends that long after the start, and anchors billing on its end', () => {
    const schedule = scheduleOf({ ...none, startsAt: at('2026-01-31T00:00:00Z'), trial: { type: 'FREE', amount: null, endAt: null, periodConfig: MONTHLY } }, NOW);
    expect(schedule.trial).toEqual({ type: 'FREE', amount: 0, startAt: at('2026-01-31T00:00:00Z'), endAt: at('2026-02-28T00:00:00Z'), periodConfig: MONTHLY });
    expect(schedule.anchorAt).toBe(at('2026-02-28T00:00:00Z'));
  });

  it('400 for starts_at not after now, a trial ending before the start, ends_at not after the start', () => {
    expect(refusal(() => scheduleOf({ ...none, startsAt: NOW }, NOW))).toEqual({ code: 'VALIDATION', context: { constraints: { starts_at: { type: 'MIN', message: 'Must be after now.' } } } });
    expect(refusal(() => scheduleOf({ ...none, trial: { type: 'FREE', amount: null, endAt: NOW, periodConfig: null } }, NOW)).context).toEqual({
      constraints: { 'trial.end_at': { type: 'MIN', message: 'Must be after the start.' } },
    });
    expect(refusal(() => scheduleOf({ ...none, endsAt: at('2026-01-01T00:00:00Z') }, NOW)).context).toEqual({ constraints: { ends_at: { type: 'MIN', message: 'Must be after the start.' } } });
  });
});

describe('initialState', () => {
  it('PENDING, first invoice due now, the first period up to the next boundary from the anchor', () => {
    const schedule = scheduleOf({ ...none, anchorAt: at('2026-02-01T00:00:00Z') }, NOW);
    const { state, events } = initialState(subscription, schedule, NOW);
    expect(events).toEqual(['SubscriptionCreated']);
    expect(state).toMatchObject({
      status: 'PENDING',
      startedAt: NOW,
      startScheduledAt: null,
      anchorAt: at('2026-02-01T00:00:00Z'),
      nextCycleAt: NOW,
      settings: { on_dunning_exhausted: 'CANCEL' },
      cycleCount: 0,
      version: 1,
    });
    expect(state.lineItems.map((l) => [l.id, l.periodStartAt, l.periodEndAt])).toEqual([
      ['slit_a', NOW, at('2026-02-01T00:00:00Z')],
      ['slit_s', NOW, null],
    ]);
  });

  it('the first period is cut at ends_at', () => {
    const { state } = initialState(subscription, scheduleOf({ ...none, endsAt: at('2026-01-20T00:00:00Z') }, NOW), NOW);
    expect(state.lineItems[0]!.periodEndAt).toBe(at('2026-01-20T00:00:00Z'));
  });

  it('TRIALING for a FREE trial, first invoice at its end; CREATED until a future start', () => {
    const trial = initialState(subscription, scheduleOf({ ...none, trial: { type: 'FREE', amount: null, endAt: at('2026-01-30T00:00:00Z'), periodConfig: null } }, NOW), NOW);
    expect(trial.events).toEqual(['SubscriptionCreated', 'SubscriptionTrialActivated']);
    expect(trial.state).toMatchObject({ status: 'TRIALING', nextCycleAt: at('2026-01-30T00:00:00Z'), anchorAt: at('2026-01-30T00:00:00Z') });
    expect(trial.state.lineItems[0]!.periodEndAt).toBe(at('2026-01-30T00:00:00Z'));

    const later = initialState(subscription, scheduleOf({ ...none, startsAt: at('2026-02-01T00:00:00Z') }, NOW), NOW);
    expect(later.state).toMatchObject({ status: 'CREATED', startedAt: null, startScheduledAt: at('2026-02-01T00:00:00Z'), nextCycleAt: at('2026-02-01T00:00:00Z') });
    expect(later.events).toEqual(['SubscriptionCreated']);
  });

  it('refuses lines with no RECURRING one, or on two billing periods, naming the request field', () => {
    expect(refusal(() => initialState({ ...subscription, lines: [setup] }, scheduleOf(none, NOW), NOW))).toEqual({ code: 'RECURRING_LINE_ITEM_REQUIRED', context: { field: 'line_items' } });
    const yearly = { ...plan, id: 'slit_y', productPriceId: 'price_y', billingPeriod: { value: 1, unit: 'YEAR' as const } };
    expect(refusal(() => initialState({ ...subscription, lines: [plan, setup, yearly] }, scheduleOf(none, NOW), NOW))).toEqual({
      code: 'BILLING_PERIOD_MISMATCH',
      context: { field: 'line_items[2].product_price_id', product_price_id: 'price_y', billing_period_config: MONTHLY },
    });
  });
});
