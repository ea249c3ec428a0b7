import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { stateOfRow } from '../../services/subscriptions/repository';
import { restoreSubscription } from '../../services/subscriptions/restore';
import { saveSubscriptionStep } from '../../services/subscriptions/save-step';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import { cancelNow } from '../../domain/subscriptions/cancellation';
import type { Platform } from '../support/platform';
import { DAY, GOOD, HOUR, MINUTE, SOFT, useSubscriptionPlatform, waitFor, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

type Change = [from: string | null, to: string, cause: string | null];

/** The recorded rows, oldest first, as [from, to, cause]. */
async function recorded(id: string): Promise<Change[]> {
  const rows = await platform.db.subscriptionStatusChange.findMany({ where: { subscriptionId: id }, orderBy: { version: 'asc' } });
  return rows.map((row) => [row.fromStatus, row.toStatus, row.cause]);
}

/** Waits until the history has `count` rows (the row's status is written with it, so they agree). */
async function historyOf(id: string, count: number): Promise<Change[]> {
  return waitFor(`${count} status changes of ${id}`, async () => {
    const changes = await recorded(id);
    return changes.length >= count ? changes : undefined;
  }, 60_000);
}

async function create(body: object) {
  return s.ok('subscriptions/create', body);
}

/** An ACTIVE weekly subscription whose renewals are charged on a soft-declining card, now in REDEMPTION. */
async function inRedemption(settings?: object) {
  const { customerId } = await s.payer();
  const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
  const created = await create({ customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon(), ...(settings ? { settings } : {}) });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  await s.ok('subscriptions/update', { id: created.id, payment_instrument_id: await s.card(customerId, SOFT) });
  await s.sleep(7 * DAY);
  await s.statusBecomes(created.id, 'REDEMPTION');
  return { customerId, id: created.id };
}

describe('every status change is recorded, through the real services and workflow', () => {
  it('create now and the first invoice paid; cancel IMMEDIATELY; restore', async () => {
    const { customerId } = await s.payer();
    const created = await create({ customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }] });
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.ok('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' });
    const at = new Date(await s.now());
    await platform.db.$transaction((tx) => restoreSubscription({ temporal: platform.env.client, now: () => at }, tx, { accountId: platform.accountId, subscriptionId: created.id }));
    expect(await historyOf(created.id, 4)).toEqual([
      [null, 'PENDING', 'CREATED'],
      ['PENDING', 'ACTIVE', 'PAYMENT_SUCCEEDED'],
      ['ACTIVE', 'CANCELLED', 'CANCELLATION_REQUESTED'],
      ['CANCELLED', 'ACTIVE', 'RESTORED'],
    ]);
    const restore = await platform.db.subscriptionStatusChange.findFirstOrThrow({ where: { subscriptionId: created.id, toStatus: 'ACTIVE', fromStatus: 'CANCELLED' } });
    expect(restore.occurredAt).toEqual(at);
    // Each change carries the subscription's account; the row keeps when it first became ACTIVE, not the restore.
    const rows = await platform.db.subscriptionStatusChange.findMany({ where: { subscriptionId: created.id }, orderBy: { version: 'asc' } });
    expect(rows.map((row) => row.accountId)).toEqual(rows.map(() => platform.accountId));
    const { firstActiveAt } = await platform.db.subscription.findUniqueOrThrow({ where: { id: created.id }, select: { firstActiveAt: true } });
    expect(firstActiveAt).toEqual(rows[1]!.occurredAt);
  });

  it('starts_at with a FREE trial: trial started, ended by update end_trial, then paid', async () => {
    const { customerId } = await s.payer();
    const startsAt = await s.soon();
    const created = await create({
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(7_000, { value: 1, unit: 'WEEK' }), quantity: 1 }],
      starts_at: startsAt,
      trial: { type: 'FREE', end_at: new Date(Date.parse(startsAt) + 7 * DAY).toISOString() },
    });
    await s.sleep(DAY);
    await s.statusBecomes(created.id, 'TRIALING');
    await s.ok('subscriptions/update', { id: created.id, end_trial: true });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect(await historyOf(created.id, 4)).toEqual([
      [null, 'CREATED', 'CREATED'],
      ['CREATED', 'TRIALING', 'TRIAL_STARTED'],
      ['TRIALING', 'PENDING', 'TRIAL_ENDED'],
      ['PENDING', 'ACTIVE', 'PAYMENT_SUCCEEDED'],
    ]);
  });

  it('starts_at reached, then ends_at: EXPIRED; updates that keep the status record nothing', async () => {
    const { customerId } = await s.payer();
    const startsAt = await s.soon();
    const created = await create({
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(7_000, { value: 1, unit: 'WEEK' }), quantity: 1 }],
      starts_at: startsAt,
      ends_at: new Date(Date.parse(startsAt) + 10 * DAY).toISOString(),
    });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.ok('subscriptions/update', { id: created.id, description: 'renamed' });
    await s.sleep(11 * DAY);
    await s.statusBecomes(created.id, 'EXPIRED');
    expect(await historyOf(created.id, 4)).toEqual([
      [null, 'CREATED', 'CREATED'],
      ['CREATED', 'PENDING', 'STARTED'],
      ['PENDING', 'ACTIVE', 'PAYMENT_SUCCEEDED'],
      ['ACTIVE', 'EXPIRED', 'ENDS_AT_REACHED'],
    ]);
  });

  it('a PERIOD_END cancellation records nothing when scheduled, then the cancellation when it falls due', async () => {
    const { customerId } = await s.payer();
    const created = await create({ customer_id: customerId, line_items: [{ product_price_id: await s.price(7_000, { value: 1, unit: 'WEEK' }), quantity: 1 }], starts_at: await s.soon() });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.ok('subscriptions/cancel', { id: created.id, mode: 'PERIOD_END', reason: 'FRAUD_ALERT_RECEIVED' });
    expect(await recorded(created.id)).toHaveLength(3);
    await s.sleep(7 * DAY + HOUR);
    await s.statusBecomes(created.id, 'CANCELLED');
    expect((await historyOf(created.id, 4)).slice(2)).toEqual([
      ['PENDING', 'ACTIVE', 'PAYMENT_SUCCEEDED'],
      ['ACTIVE', 'CANCELLED', 'FRAUD_ALERT_RECEIVED'],
    ]);
  });

  it('renewal payment failed, dunning exhausted, cancelled by dunning exhaustion', async () => {
    const { id } = await inRedemption();
    await s.sleep(7 * DAY + HOUR);
    await s.statusBecomes(id, 'CANCELLED');
    expect((await historyOf(id, 6)).slice(3)).toEqual([
      ['ACTIVE', 'REDEMPTION', 'PAYMENT_FAILED'],
      ['REDEMPTION', 'UNPAID', 'DUNNING_EXHAUSTED'],
      ['UNPAID', 'CANCELLED', 'DUNNING_EXHAUSTED'],
    ]);
  });

  it('REMAIN_UNPAID, then the unpaid invoice paid by hand: ACTIVE again', async () => {
    const { customerId, id } = await inRedemption({ on_dunning_exhausted: 'REMAIN_UNPAID', dunning_retry_schedule_days: [2] });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(id, 'UNPAID');
    const renewal = (await s.invoices(id))[1]!;
    await s.ok('invoices/pay', { id: renewal.id, payment_instrument_id: await s.card(customerId, GOOD) });
    await s.statusBecomes(id, 'ACTIVE');
    expect((await historyOf(id, 6)).slice(3)).toEqual([
      ['ACTIVE', 'REDEMPTION', 'PAYMENT_FAILED'],
      ['REDEMPTION', 'UNPAID', 'DUNNING_EXHAUSTED'],
      ['UNPAID', 'ACTIVE', 'INVOICES_SETTLED'],
    ]);
  });
});

describe('the history is written with the status, in its transaction', () => {
  /** A subscription whose workflow sleeps until a start a month away: nothing else writes it meanwhile. */
  async function idle() {
    const { customerId } = await s.payer();
    const created = await create({ customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }], starts_at: new Date((await s.now()) + 30 * DAY).toISOString() });
    const row = await platform.db.subscription.findUniqueOrThrow({ where: { id: created.id }, select: subscriptionSelect });
    return stateOfRow(row);
  }

  it('a status write that fails leaves neither the status nor its history', async () => {
    const state = await idle();
    const step = cancelNow(state, state.updatedAt + MINUTE, 'CANCELLATION_REQUESTED', null);
    // A quantity beyond PostgreSQL's integer range fails the line write, after the row and its status.
    const broken = { ...step.state, lineItems: step.state.lineItems.map((line) => ({ ...line, quantity: 2 ** 40 })) };
    await expect(saveSubscriptionStep({ db: platform.db }, { state: broken, events: step.events })).rejects.toThrow();
    expect((await platform.db.subscription.findUniqueOrThrow({ where: { id: state.id } })).status).toBe('CREATED');
    expect(await recorded(state.id)).toEqual([[null, 'CREATED', 'CREATED']]);

    await saveSubscriptionStep({ db: platform.db }, { state: step.state, events: step.events });
    expect(await recorded(state.id)).toEqual([
      [null, 'CREATED', 'CREATED'],
      ['CREATED', 'CANCELLED', 'CANCELLATION_REQUESTED'],
    ]);
  });

  it('a retried save (the same version) records the change once', async () => {
    const state = await idle();
    const step = cancelNow(state, state.updatedAt + MINUTE, 'DISPUTE_RECEIVED', null);
    await saveSubscriptionStep({ db: platform.db }, { state: step.state, events: step.events });
    await saveSubscriptionStep({ db: platform.db }, { state: step.state, events: step.events });
    expect(await recorded(state.id)).toEqual([
      [null, 'CREATED', 'CREATED'],
      ['CREATED', 'CANCELLED', 'DISPUTE_RECEIVED'],
    ]);
  });
});

describe('subscriptions/list-status-history', () => {
  let id: string;
  let channelId: string;

  beforeAll(async () => {
    const { customerId } = await s.payer();
    const created = await create({ customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }] });
    id = created.id;
    channelId = created.channel_id;
    await s.statusBecomes(id, 'ACTIVE');
    await s.ok('subscriptions/cancel', { id, mode: 'IMMEDIATELY' });
    await historyOf(id, 3);
  });

  it('answers the changes newest first, each with from, to, cause and the time to the microsecond', async () => {
    const page = await s.ok('subscriptions/list-status-history', { id });
    expect(page.pagination).toEqual({ page_size: 20, next_page_token: '' });
    expect(page.items.map((c: any) => [c.from_status ?? null, c.to_status, c.cause])).toEqual([
      ['ACTIVE', 'CANCELLED', 'CANCELLATION_REQUESTED'],
      ['PENDING', 'ACTIVE', 'PAYMENT_SUCCEEDED'],
      [null, 'PENDING', 'CREATED'],
    ]);
    expect(page.items[2]).not.toHaveProperty('from_status');
    for (const change of page.items) {
      expect(change).toMatchObject({ id: expect.stringMatching(/^ssch_/), subscription_id: id, occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) });
    }
    const subscription = await s.get(id);
    expect(page.items[0].occurred_at).toBe(subscription.cancellation_info.cancel_at);
  });

  it('pages with a keyset token bound to the subscription', async () => {
    const all = (await s.ok('subscriptions/list-status-history', { id })).items;
    const first = await s.ok('subscriptions/list-status-history', { id, pagination: { page_size: 2 } });
    expect(first.items).toEqual(all.slice(0, 2));
    expect(first.pagination.next_page_token).not.toBe('');
    const second = await s.ok('subscriptions/list-status-history', { id, pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(second).toEqual({ items: all.slice(2), pagination: { page_size: 2, next_page_token: '' } });

    const { customerId } = await s.payer();
    const other = await create({ customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }] });
    const misused = await s.refused('subscriptions/list-status-history', { id: other.id, pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(misused).toMatchObject({ status: 400, code: 'VALIDATION', context: { constraints: { 'pagination.next_page_token': { type: 'FORMAT' } } } });
    const forged = await s.refused('subscriptions/list-status-history', { id, pagination: { page_size: 2, next_page_token: 'bm90IGEgdG9rZW4' } });
    expect(forged).toMatchObject({ status: 400, code: 'VALIDATION', context: { constraints: { 'pagination.next_page_token': { type: 'FORMAT' } } } });
  });

  it('needs subscriptions:get, as subscriptions/get does', async () => {
    const listOnly = await s.ok('api-keys/create', { name: 'list only', permissions: ['subscriptions:list'] });
    expect(await s.refused('subscriptions/list-status-history', { id }, { secret: listOnly.secret })).toMatchObject({
      status: 403,
      code: 'PERMISSION_DENIED',
      context: { required_permission: 'subscriptions:get' },
    });
    const getOnly = await s.ok('api-keys/create', { name: 'get only', permissions: ['subscriptions:get'] });
    expect((await s.ok('subscriptions/list-status-history', { id }, { secret: getOnly.secret })).items).toHaveLength(3);
  });

  it('is 404 for an unknown subscription and for one outside the key’s channels or the channel named', async () => {
    const unknown = 'subs_01jz0000000000000000000000';
    expect(await s.refused('subscriptions/list-status-history', { id: unknown })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const elsewhere = platform.channelIds.find((c) => c !== channelId)!;
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'other channel', channelIds: [elsewhere] });
    expect(await s.refused('subscriptions/list-status-history', { id }, { secret: bound.secret })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await s.refused('subscriptions/list-status-history', { id, channel_id: elsewhere })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await s.ok('subscriptions/list-status-history', { id, channel_id: channelId })).items).toHaveLength(3);
  });

  it('refuses a malformed id, a page size over 100 and an unknown field with the field in context', async () => {
    const badId = await s.refused('subscriptions/list-status-history', { id: 'cust_01jz0000000000000000000000' });
    expect(badId).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(Object.keys(badId.context.constraints)).toEqual(['id']);
    const missing = await s.refused('subscriptions/list-status-history', {});
    expect(Object.keys(missing.context.constraints)).toEqual(['id']);
    const big = await s.refused('subscriptions/list-status-history', { id, pagination: { page_size: 101 } });
    expect(big).toMatchObject({ status: 400, context: { constraints: { 'pagination.page_size': { type: 'MAX' } } } });
    const extra = await s.refused('subscriptions/list-status-history', { id, filters: {} });
    expect(extra).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(Object.keys(extra.context.constraints)).toEqual(['filters']);
  });
});
