import { createOperatorApiKey } from '../../scripts/operator/accounts';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

describe('subscriptions/create: which refusal a request with several faults gets', () => {
  it('a channel the key cannot access is 403 before the schedule is checked (docs/errors.md: permission before body validation)', async () => {
    const [own, elsewhere] = platform.channelIds;
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'one channel', channelIds: [own] });
    const { customerId } = await s.payer();
    const price = await s.price(1_000);
    const past = new Date((await s.now()) - 60_000).toISOString();
    const refusal = await s.refused(
      'subscriptions/create',
      { channel_id: elsewhere, customer_id: customerId, starts_at: past, line_items: [{ product_price_id: price, quantity: 1 }] },
      { secret: bound.secret },
    );
    expect(refusal).toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
  });
});
