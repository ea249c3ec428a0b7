import { EVENT_TYPES } from '../../domain/event-catalogue';
import { newId } from '../../domain/ids';
import { initialState, scheduleOf } from '../../domain/subscriptions/initial-state';
import { insertSubscription } from '../../services/subscriptions/repository';
import { newLines, resolvePrices } from '../../services/subscriptions/references';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { readSubscriptionRow } from '../../services/subscriptions/subscription-read';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import type { Platform } from '../support/platform';
import { DAY, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/**
 * subscriptions/create writes the row, its lines, its first status and its events in one
 * statement and answers from the row it built in memory: that row must be exactly what Prisma
 * reads back, and each event must carry the subscription as later reads serialize it.
 */
describe('the one-statement subscription insert', () => {
  async function newSubscription(lines: { amount: number; period?: { value: number; unit: string } | null; tax?: { mode: 'EXCLUSIVE' | 'INCLUSIVE'; rate: number; category_id?: string } }[], extra: { trial?: boolean; metadata?: Record<string, string>; description?: string }) {
    const { customerId, instrumentId } = await s.payer();
    const priceIds: string[] = [];
    for (const line of lines) priceIds.push(await s.price(line.amount, line.period === undefined ? { value: 1, unit: 'MONTH' } : line.period));
    const now = Date.now();
    const resolved = await resolvePrices(platform.db, platform.accountId, priceIds.map((id, index) => ({ product_price_id: id, field: `line_items[${index}]` })), undefined);
    return initialState(
      {
        id: newId('subscription', now),
        accountId: platform.accountId,
        channelId: platform.channelIds[0],
        customerId,
        currency: resolved.currency,
        paymentInstrumentId: instrumentId,
        collectionMethod: 'CHARGE_AUTOMATICALLY',
        description: extra.description ?? null,
        merchantReference: null,
        metadata: extra.metadata ?? null,
        discounts: [],
        settings: {},
        lines: newLines(resolved, lines.map((line) => ({ quantity: 2, ...(line.tax ? { tax: line.tax } : {}) })), now),
      },
      scheduleOf({ startsAt: null, trial: extra.trial ? { type: 'FREE', amount: null, endAt: now + 7 * DAY, periodConfig: null } : null, anchorAt: null, endsAt: null }, now),
      now,
    );
  }

  it('answers the row Prisma reads back, with its first status and its events beside it', async () => {
    const bare = await newSubscription([{ amount: 1_000 }], {});
    const full = await newSubscription(
      [
        { amount: 7_000, period: { value: 1, unit: 'WEEK' }, tax: { mode: 'EXCLUSIVE', rate: 7.25, category_id: 'taxc_reduced' } },
        { amount: 500, period: null, tax: { mode: 'INCLUSIVE', rate: 0.0001 } },
      ],
      { trial: true, metadata: { zeta: 'last', a: 'first', seats: '2' }, description: 'With everything' },
    );
    expect(full.events.length).toBeGreaterThan(1);

    for (const { state, events } of [bare, full]) {
      const answered = await platform.db.$transaction((tx) => insertSubscription(tx, state, events));
      const stored = await platform.db.subscription.findUnique({ where: { id: state.id }, select: subscriptionSelect });
      expect(answered).toEqual(stored);
      expect(answered).toEqual(await readSubscriptionRow(platform.db, state.id));

      const history = await platform.db.subscriptionStatusChange.findMany({ where: { subscriptionId: state.id } });
      expect(history).toEqual([expect.objectContaining({ fromStatus: null, toStatus: state.status, version: state.version, occurredAt: new Date(state.updatedAt) })]);

      const recorded = await platform.db.outboxEvent.findMany({ where: { data: { path: ['subscription', 'id'], equals: state.id } }, orderBy: { id: 'asc' } });
      expect(recorded.map((event) => event.eventType)).toEqual(events.map((name) => EVENT_TYPES[name]));
      for (const event of recorded) {
        expect(event).toMatchObject({ accountId: platform.accountId, channelId: state.channelId, occurredAt: new Date(state.updatedAt) });
        expect(event.data).toEqual({ subscription: serializeSubscription(stored!) });
      }
    }
    expect((await readSubscriptionRow(platform.db, full.state.id))!.lineItems.map((line) => line.taxRate?.toString() ?? null)).toEqual(['7.25', '0.0001']);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const { state, events } = await newSubscription([{ amount: 1_000 }], {});
    await expect(
      platform.db.$transaction(async (tx) => {
        await insertSubscription(tx, state, events);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await readSubscriptionRow(platform.db, state.id)).toBeNull();
    expect(await platform.db.subscriptionLineItem.count({ where: { subscriptionId: state.id } })).toBe(0);
    expect(await platform.db.subscriptionStatusChange.count({ where: { subscriptionId: state.id } })).toBe(0);
  });
});
