import { randomBytes } from 'node:crypto';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import { startStripeMock } from '../../scripts/stripe/stripe-mock';
import { connectStripe, stripeConnectionOf } from '../../services/payments/providers/stripe/connection';
import { stripeProvider } from '../../services/payments/providers/stripe/stripe-provider';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * stripe-mock answers only requests its copy of Stripe's OpenAPI document accepts (a wrong
 * parameter, type or path is a 400/404): every request the provider sends, on each of its paths,
 * must be answered 2xx.
 */
let database: TestDatabase;
let mock: StripeEmulator;
const accountId = 'acct_contract';
const statuses: Array<{ method: string; path: string; status: number }> = [];

/** What the SDK reports of each answer (its `response` event). */
interface ResponseEvent {
  method?: string;
  path?: string;
  status?: number;
}

beforeAll(async () => {
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  [database, mock] = await Promise.all([createTestDatabase(), startStripeMock()]);
  await connectStripe(database.db, accountId, { secretKey: 'sk_test_contract0001', webhookSecret: 'whsec_contract0001', apiBase: mock.url, connectedBy: 'operator' }, new Date());
  const connection = (await stripeConnectionOf(database.db, accountId))!;
  connection.client.on('response', (event: ResponseEvent) => statuses.push({ method: event.method ?? '', path: event.path ?? '', status: event.status ?? 0 }));
});

afterAll(async () => {
  await mock?.stop();
  await database?.drop();
});

const card = { instrumentId: 'pi_ours', brand: 'VISA', sandboxScenario: null, provider: 'stripe', providerReference: 'pm_card_visa', providerCustomerReference: 'cus_contract' };

describe('the Stripe provider against stripe-mock (Stripe OpenAPI)', () => {
  it('sends only requests Stripe accepts: charge, lookup by id and by metadata, refund and its lookups', async () => {
    const provider = stripeProvider(database.db);
    const charged = await provider.charge({ idempotencyKey: 'pay_1/stripe', accountId, amount: 1_000, currency: 'EUR', card, paymentId: 'pay_1', invoiceId: 'inv_1' });
    // stripe-mock's fixture PaymentIntent is `requires_payment_method` with a card error whatever is
    // asked: a decline read from an accepted answer, not a refused request (those are 4xx, below).
    expect(charged).toMatchObject({ outcome: 'HARD_DECLINED', declineCode: 'card_declined', providerChargeId: expect.stringMatching(/^pi_/) });
    // Read back by the id the payment recorded.
    expect(await provider.lookup('pay_1/stripe', accountId, (charged as { providerChargeId: string }).providerChargeId)).toMatchObject({ outcome: 'HARD_DECLINED' });
    // A request cut off before the payment recorded Stripe's id is found by metadata (search).
    expect(await provider.lookup('pay_1/stripe', accountId)).toMatchObject({ outcome: 'HARD_DECLINED' });

    const refunded = await provider.refund({ idempotencyKey: 'inv_1/refund/r1', accountId, providerChargeId: 'pi_123', amount: 100 });
    expect(refunded).toMatchObject({ outcome: 'REFUNDED', providerRefundId: expect.stringMatching(/^re_/) });
    // Asked again under its key: read back by Stripe's id, then (cut off) found among the PaymentIntent's refunds.
    expect(await provider.refund({ idempotencyKey: 'inv_1/refund/r1', accountId, providerChargeId: 'pi_123', amount: 100 })).toMatchObject({ outcome: 'REFUNDED' });
    await database.db.stripeRequest.update({ where: { accountId_idempotencyKey: { accountId, idempotencyKey: 'inv_1/refund/r1' } }, data: { objectId: null } });
    await provider.refund({ idempotencyKey: 'inv_1/refund/r1', accountId, providerChargeId: 'pi_123', amount: 100 });

    expect(statuses.map((s) => `${s.method} ${s.path.split('?')[0]!.replace(/\/(pi|re)_\w+/, '/{id}')}`)).toEqual(
      expect.arrayContaining(['POST /v1/payment_intents', 'GET /v1/payment_intents/{id}', 'GET /v1/payment_intents/search', 'POST /v1/refunds', 'GET /v1/refunds/{id}', 'GET /v1/refunds']),
    );
    expect(statuses.filter((s) => s.status >= 300)).toEqual([]);
  });
});
