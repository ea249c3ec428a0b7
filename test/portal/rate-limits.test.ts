import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { portalSignIn } from './portal-client';

/**
 * docs/portal.md: a SetupIntent costs the merchant a Stripe request, so asking for one takes a
 * token of the customer's `payment-instruments:attach` bucket, as /v2 operations take theirs.
 * Here an account without Stripe: the refusal before the limit is its PROVIDER_NOT_CONNECTED.
 */
const platform = usePlatform({ quota: { ratePerSecond: 0.001, burst: 3 } });
const m = merchant(platform);

it('answers 429 once the customer has asked for as many SetupIntents as the quota allows, per customer', async () => {
  const portal = await portalSignIn(platform, await m.customer());
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await portal.post('payment-instruments/create-setup-intent'));
  expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 429]);
  expect(answers[3]!.body).toMatchObject({ code: 'RATE_LIMIT', context: { next_try_at: expect.any(String) } });
  expect(answers[3]!.headers.get('retry-after')).toMatch(/^\d+$/);

  const other = await portalSignIn(platform, await m.customer());
  expect((await other.post('payment-instruments/create-setup-intent')).status).toBe(422);
});
