import type { SubscriptionState } from '../../domain/subscriptions/state';
import { stateOfRow } from '../../services/subscriptions/repository';
import { saveSubscriptionStep } from '../../services/subscriptions/save-step';
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
 * writeLines): the stored lines always end up as the state has them, and a change that keeps
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

  /** Saves `state` as the next version, and returns the statements that wrote lines. */
  async function save(state: SubscriptionState): Promise<string[]> {
    const next = { ...state, version: state.version + 1, updatedAt: state.updatedAt + 1 };
    const { count } = await counting.measure(() => saveSubscriptionStep({ db: counting.db }, { state: next, events: [] }));
    expect((await stored(state.id)).lineItems).toEqual(next.lineItems);
    return count.texts.filter((text) => /^\s*(INSERT|UPDATE|DELETE)\b[^;]*"subscription_line_items"/i.test(text));
  }

  it('no line written when the lines are as stored; one UPDATE per changed line; a removal and an addition rewrite them', async () => {
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

    expect(await save({ ...(await stored(created.id)), description: 'Only the description' })).toEqual([]);

    const current = await stored(created.id);
    const [first, second] = current.lineItems;
    const changed = { ...second!, quantity: 5, periodEndAt: current.updatedAt + 86_400_000, updatedAt: current.updatedAt + 1 };
    const writes = await save({ ...current, lineItems: [first!, changed] });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\s*UPDATE/i);

    const later = await stored(created.id);
    const added = { ...later.lineItems[0]!, id: `${later.lineItems[0]!.id}x`, quantity: 7 };
    const rewritten = await save({ ...later, lineItems: [later.lineItems[1]!, added] });
    expect(rewritten.some((text) => /^\s*DELETE/i.test(text))).toBe(true);
    expect((await stored(created.id)).lineItems.map((line) => line.id)).toEqual([later.lineItems[1]!.id, added.id]);
  });
});
