import type { SubscriptionState } from '../../domain/subscriptions/state';
import { stateOfRow } from '../../services/subscriptions/repository';
import { saveSubscriptionStep, saveSubscriptionStepIn } from '../../services/subscriptions/save-step';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { readSubscriptionRow } from '../../services/subscriptions/subscription-read';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import { countingDatabase } from '../support/query-counter';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/**
 * How saveSubscriptionStep writes a subscription's lines (services/subscriptions/repository.ts,
 * writeSubscription): the stored lines always end up as the state has them, and a change that keeps
 * the same lines in the same order writes only the lines that differ.
 */
describe('the lines a subscription change writes', () => {
  let counting: ReturnType<typeof countingDatabase>;

  beforeAll(async () => {
    const [{ name }] = await platform.db.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
    counting = countingDatabase(process.env.TEST_ADMIN_DATABASE_URL!.replace(/\/[^/]+$/, `/${name}`));
  });
  afterAll(() => counting?.db.$disconnect());

  async function stored(id: string): Promise<SubscriptionState> {
    return stateOfRow(await platform.db.subscription.findUniqueOrThrow({ where: { id }, select: subscriptionSelect }));
  }

  /** Each line's id with the transaction that last wrote it. */
  async function lineWriters(subscriptionId: string): Promise<Map<string, string>> {
    const rows = await platform.db.$queryRaw<Array<{ id: string; xmin: string }>>`
      SELECT id, xmin::text AS xmin FROM subscription_line_items WHERE subscription_id = ${subscriptionId}`;
    return new Map(rows.map((row) => [row.id, row.xmin]));
  }

  /** Saves `state` as the next version; returns the lines it wrote and its statements that write. */
  async function save(state: SubscriptionState): Promise<{ linesWritten: string[]; writes: string[] }> {
    const next = { ...state, version: state.version + 1, updatedAt: state.updatedAt + 1 };
    const before = await lineWriters(state.id);
    const { result, count } = await counting.measure(() => saveSubscriptionStep({ db: counting.db }, { state: next, events: [] }));
    expect((await stored(state.id)).lineItems).toEqual(next.lineItems);
    // The answer is built from the state it wrote, not read back: it must be what a read finds.
    expect(result.subscription).toEqual(serializeSubscription((await readSubscriptionRow(platform.db, state.id))!));
    const after = await lineWriters(state.id);
    return {
      linesWritten: [...after].filter(([id, xmin]) => before.get(id) !== xmin).map(([id]) => id),
      writes: count.texts.filter((text) => /^\s*(WITH|INSERT|UPDATE|DELETE)\b/i.test(text)),
    };
  }

  it('no line written when the lines are as stored; only the changed lines, in the one statement that saves the row; a removal and an addition rewrite them', async () => {
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [
        { product_price_id: await s.price(1_000), quantity: 1 },
        { product_price_id: await s.price(2_000, { value: 1, unit: 'MONTH' }, 'Seats'), quantity: 3 },
      ],
      starts_at: new Date((await s.now()) + 30 * 86_400_000).toISOString(),
    });
    const initial = await stored(created.id);
    expect(initial.lineItems).toHaveLength(2);

    const unchanged = await save({ ...(await stored(created.id)), description: 'Only the description' });
    expect(unchanged.linesWritten).toEqual([]);
    expect(unchanged.writes).toHaveLength(1);

    const current = await stored(created.id);
    const [first, second] = current.lineItems;
    const changed = { ...second!, quantity: 5, periodEndAt: current.updatedAt + 86_400_000, updatedAt: current.updatedAt + 1 };
    const one = await save({ ...current, lineItems: [first!, changed] });
    expect(one.linesWritten).toEqual([second!.id]);
    expect(one.writes).toHaveLength(1);

    const later = await stored(created.id);
    const added = { ...later.lineItems[0]!, id: `${later.lineItems[0]!.id}x`, quantity: 7 };
    const rewritten = await save({ ...later, lineItems: [later.lineItems[1]!, added] });
    expect(rewritten.writes.some((text) => /^\s*DELETE\b[^;]*\bsubscription_line_items\b/i.test(text))).toBe(true);
    expect((await stored(created.id)).lineItems.map((line) => line.id)).toEqual([later.lineItems[1]!.id, added.id]);
  });

  it('a step handed the row its previous step wrote does not read it again while it holds that version, and reads it when it does not', async () => {
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }],
      starts_at: new Date((await s.now()) + 30 * 86_400_000).toISOString(),
    });
    const reads = (texts: string[]) => texts.filter((text) => /^\s*SELECT s\.id\b/i.test(text));
    const next = (state: SubscriptionState, change: Partial<SubscriptionState>): SubscriptionState => ({
      ...state,
      ...change,
      version: state.version + 1,
      updatedAt: state.updatedAt + 1,
    });

    const first = next(await stored(created.id), { description: 'First' });
    const written = await counting.db.$transaction((tx) => saveSubscriptionStepIn(tx, { state: first, events: [] }));
    const second = next(first, { description: 'Second' });
    const known = await counting.measure(() => counting.db.$transaction((tx) => saveSubscriptionStepIn(tx, { state: second, events: [] }, written.row)));
    expect(reads(known.count.texts)).toEqual([]);
    expect(known.result.subscription).toEqual(serializeSubscription((await readSubscriptionRow(platform.db, created.id))!));

    // Another step wrote meanwhile: the row handed in is stale, so it is read, and the status move is recorded from the stored status.
    await saveSubscriptionStep({ db: platform.db }, { state: next(second, { status: 'UNPAID' }), events: [] });
    const third = next(next(second, {}), { status: 'ACTIVE', description: 'Third' });
    const stale = await counting.measure(() => counting.db.$transaction((tx) => saveSubscriptionStepIn(tx, { state: third, events: [] }, known.result.row)));
    expect(reads(stale.count.texts)).toHaveLength(1);
    expect(stale.result.subscription).toEqual(serializeSubscription((await readSubscriptionRow(platform.db, created.id))!));
    const moves = await platform.db.subscriptionStatusChange.findMany({ where: { subscriptionId: created.id }, orderBy: { version: 'asc' }, select: { fromStatus: true, toStatus: true } });
    expect(moves.slice(-2)).toEqual([
      { fromStatus: first.status, toStatus: 'UNPAID' },
      { fromStatus: 'UNPAID', toStatus: 'ACTIVE' },
    ]);
  });

  it('writes every column of the row as the state has it, null JSON as SQL NULL, and each status move once in the history', async () => {
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }],
      starts_at: new Date((await s.now()) + 30 * 86_400_000).toISOString(),
    });
    const current = await stored(created.id);
    const t = current.updatedAt;
    const changed: SubscriptionState = {
      ...current,
      status: 'TRIALING',
      paymentInstrumentId: null,
      latestInvoiceId: 'inv_not_checked',
      description: 'Every column',
      merchantReference: 'PO-9',
      metadata: { plan: 'gold', seats: '3' },
      discounts: [{ coupon_id: 'cpn_1', coupon_code: 'TEN', calculation_type: 'PERCENTAGE', calculation_value: 10 }],
      trial: { type: 'PAID', amount: 99, startAt: t + 1_000, endAt: t + 2_000, periodConfig: { value: 7, unit: 'DAY' } },
      cancellation: { mode: 'PERIOD_END', cancelAt: t + 3_000, requestedAt: t + 4_000, reason: 'CANCELLATION_REQUESTED', comment: 'Too dear' },
      settings: { ...current.settings, days_until_due: 9 },
      startScheduledAt: t + 5_000,
      startedAt: t + 6_000,
      anchorAt: t + 7_000,
      endsAt: t + 8_000,
      cycleCount: 4,
    };
    await save(changed);
    const written = await stored(created.id);
    expect(written).toEqual({ ...changed, version: current.version + 1, updatedAt: t + 1, nextCycleAt: written.nextCycleAt });

    const cleared: SubscriptionState = { ...written, metadata: null, trial: null, cancellation: null, endsAt: null, description: null };
    await save(cleared);
    expect(await stored(created.id)).toEqual({ ...cleared, version: written.version + 1, updatedAt: written.updatedAt + 1 });
    const raw = await platform.db.$queryRaw<Array<{ metadata: unknown; trial: unknown }>>`
      SELECT metadata IS NULL AS metadata, trial_info IS NULL AS trial FROM subscriptions WHERE id = ${created.id}`;
    expect(raw).toEqual([{ metadata: true, trial: true }]);

    const history = await platform.db.subscriptionStatusChange.findMany({ where: { subscriptionId: created.id }, orderBy: { version: 'asc' } });
    expect(history.slice(-1)).toEqual([
      expect.objectContaining({ fromStatus: current.status, toStatus: 'TRIALING', version: current.version + 1, occurredAt: new Date(t + 1) }),
    ]);
  });
});
