import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { stripeProvider } from '../../services/payments/providers/stripe/stripe-provider';
import { movementOf } from '../../services/payments/waiting-payments';
import type { PaymentRow } from '../../services/payments/payment-rows';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * Stripe answers neither emulator gives: a scripted stand-in for api.stripe.com, each request
 * answered by the next scripted answer (after GET /v1/balance, which the connection checks).
 */
let database: TestDatabase;
let server: Server;
const script: Array<{ status: number; body: unknown } | 'hang'> = [];
const seen: Array<{ method: string; path: string; idempotencyKey?: string }> = [];
let account = 0;

beforeAll(async () => {
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  database = await createTestDatabase();
  server = createServer((request: IncomingMessage, response) => {
    request.resume();
    if (request.url === '/v1/balance') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'balance', available: [], pending: [] }));
      return;
    }
    seen.push({ method: request.method!, path: request.url!, idempotencyKey: request.headers['idempotency-key'] as string | undefined });
    const next = script.shift() ?? { status: 500, body: { error: { type: 'api_error', message: 'unscripted' } } };
    if (next === 'hang') {
      // Accepted and never answered: the connection is cut, as a network failure does.
      request.socket.destroy();
      return;
    }
    response.writeHead(next.status, { 'content-type': 'application/json' }).end(JSON.stringify(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.drop();
});

async function connected(): Promise<string> {
  const accountId = `acct_failures${++account}`;
  const { port } = server.address() as AddressInfo;
  await connectStripe(database.db, accountId, { secretKey: 'sk_test_failures0001', webhookSecret: 'whsec_failures0001', apiBase: `http://127.0.0.1:${port}`, connectedBy: 'operator' }, new Date());
  script.length = 0;
  seen.length = 0;
  return accountId;
}

const card = { instrumentId: 'pi_ours', brand: 'VISA', sandboxScenario: null, provider: 'stripe', providerReference: 'pm_1', providerCustomerReference: 'cus_1' };
const chargeOf = (accountId: string, key: string) => ({ idempotencyKey: key, accountId, amount: 1_000, currency: 'EUR', card, paymentId: 'pay_1', invoiceId: 'inv_1' });

describe('the Stripe provider on answers the emulators never give', () => {
  it("takes an off-session charge Stripe wants authenticated (402 authentication_required) as waiting for the customer, not a decline", async () => {
    const accountId = await connected();
    script.push({
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'This payment requires authentication.',
          payment_intent: { id: 'pi_needs_auth', object: 'payment_intent', status: 'requires_payment_method' },
        },
      },
    });
    expect(await stripeProvider(database.db).charge(chargeOf(accountId, 'pay_a/stripe'))).toEqual({ outcome: 'REQUIRES_ACTION', providerChargeId: 'pi_needs_auth', nextActionUrl: null });
  });

  it('asks again under the same key when the answer does not come back, and never says "nothing happened"', async () => {
    const accountId = await connected();
    script.push('hang', 'hang', 'hang');
    await expect(stripeProvider(database.db).charge(chargeOf(accountId, 'pay_b/stripe'))).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    // Sent again (by us, and Node's client on a dropped kept-alive socket), always under the same key.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen.map((r) => `${r.method} ${r.path} ${r.idempotencyKey}`))).toEqual(new Set(['POST /v1/payment_intents pay_b/stripe']));
  });

  it("takes Stripe's answer to a repeat of the key after a cut-off request: one PaymentIntent", async () => {
    const accountId = await connected();
    script.push('hang', { status: 200, body: { id: 'pi_first', object: 'payment_intent', status: 'succeeded', amount: 1_000, currency: 'eur', metadata: {} } });
    expect(await stripeProvider(database.db).charge(chargeOf(accountId, 'pay_c/stripe'))).toEqual({ outcome: 'APPROVED', providerChargeId: 'pi_first', fee: 0 });
    expect(new Set(seen.map((r) => r.idempotencyKey))).toEqual(new Set(['pay_c/stripe']));
  });

  it('does not take "a request under this key is still running" (409) for a refusal', async () => {
    const accountId = await connected();
    const inUse = { status: 409, body: { error: { type: 'invalid_request_error', code: 'idempotency_key_in_use', message: 'There is currently another in-progress request using this Idempotent Key.' } } };
    script.push(inUse, inUse, inUse);
    await expect(stripeProvider(database.db).charge(chargeOf(accountId, 'pay_d/stripe'))).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    script.push(inUse);
    await expect(stripeProvider(database.db).refund({ idempotencyKey: 'inv_d/refund/1', accountId, providerChargeId: 'pi_d', amount: 100 })).rejects.toBeDefined();
  });

  it('keeps a payment waiting for the customer as it is while their authentication is processed', () => {
    const waiting = { status: 'REQUIRES_ACTION', nextActionUrl: null } as PaymentRow;
    expect(movementOf(waiting, { outcome: 'PROCESSING', providerChargeId: 'pi_x' })).toBeNull();
    expect(movementOf(waiting, { outcome: 'APPROVED', providerChargeId: 'pi_x', fee: 0 })).toMatchObject({ status: 'SUCCEEDED' });
    expect(movementOf({ status: 'AWAITING_PROVIDER', nextActionUrl: null } as PaymentRow, { outcome: 'APPROVED', providerChargeId: 'pi_x', fee: 0 })).toMatchObject({ status: 'SUCCEEDED' });
  });
});
