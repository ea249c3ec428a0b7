import { randomBytes } from 'node:crypto';
import { usePlatform } from '../support/platform';
import { merchant } from './fixtures';

/**
 * Issue 41 ("the dashboard shows the provider"): invoices/list-payments answers each payment of
 * an invoice with its provider and the provider's reference, and a Stripe payment with its link
 * into Stripe's dashboard, test data or live by the account's connection.
 */
const platform = usePlatform();

async function paidAfterADecline() {
  const m = merchant(platform);
  const customerId = await m.customer();
  const invoice = await m.openInvoice(customerId, { amount: 4_200 });
  const declined = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4000000000000002') });
  const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
  return { invoice, declined: declined.payment, paid: paid.payment };
}

async function connectStripe(livemode: boolean) {
  const now = new Date();
  const data = {
    sealedSecretKey: new Uint8Array(randomBytes(40)),
    secretKeyLast4: 'abcd',
    sealedWebhookSecret: new Uint8Array(randomBytes(40)),
    webhookSecretLast4: 'wxyz',
    livemode,
    connectedBy: 'operator',
    updatedAt: now,
  };
  await platform.db.stripeConnection.upsert({ where: { accountId: platform.accountId }, create: { accountId: platform.accountId, connectedAt: now, ...data }, update: data });
}

describe('invoices/list-payments', () => {
  it('lists every payment of the invoice newest first, with provider and provider reference, page by page', async () => {
    const { invoice, declined, paid } = await paidAfterADecline();
    const rows = await platform.db.payment.findMany({ where: { invoiceId: invoice.id }, orderBy: { id: 'desc' } });
    expect(rows.map((row) => row.status)).toEqual(['SUCCEEDED', 'DECLINED']);

    const first = await platform.call('/v2/invoices/list-payments', { id: invoice.id, pagination: { page_size: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([
      {
        id: paid.id,
        invoice_id: invoice.id,
        status: 'SUCCEEDED',
        amount: 4_200,
        currency: 'EUR',
        provider: rows[0]!.provider,
        provider_reference: rows[0]!.providerChargeId,
        payment_instrument_id: rows[0]!.instrumentId,
        refunded_amount: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const second = await platform.call('/v2/invoices/list-payments', { id: invoice.id, pagination: { page_size: 1, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items).toEqual([
      expect.objectContaining({ id: declined.id, status: 'DECLINED', decline_code: declined.decline_code, provider: rows[1]!.provider, provider_reference: rows[1]!.providerChargeId }),
    ]);
    expect(second.body.pagination.next_page_token).toBe('');
    // The sandbox has no dashboard of its own to link to.
    expect(first.body.items[0].provider_url).toBeUndefined();
  });

  it('needs invoices:get and answers 404 for an invoice the key cannot see', async () => {
    const { invoice } = await paidAfterADecline();
    const reader = await platform.call('/v2/api-keys/create', { name: 'reader', permissions: ['invoices:get'] });
    expect((await platform.call('/v2/invoices/list-payments', { id: invoice.id }, { secret: reader.body.secret })).status).toBe(200);
    const other = await platform.call('/v2/api-keys/create', { name: 'lister', permissions: ['invoices:list'] });
    const refused = await platform.call('/v2/invoices/list-payments', { id: invoice.id }, { secret: other.body.secret });
    expect(refused).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { required_permission: 'invoices:get' } } });

    const elsewhere = await platform.call('/v2/api-keys/create', { name: 'channel three', channel_ids: [platform.channelIds[2]], permissions: ['invoices:get'] });
    expect((await platform.call('/v2/invoices/list-payments', { id: invoice.id }, { secret: elsewhere.body.secret })).body.code).toBe('NOT_FOUND');
    expect((await platform.call('/v2/invoices/list-payments', { id: 'inv_00000000000000000000000000' })).status).toBe(404);
  });

  // Last: once the account is connected to Stripe, its charges go there.
  it('links a Stripe payment into Stripe’s test data, or its live data once the connection is live', async () => {
    const { invoice, declined, paid } = await paidAfterADecline();
    await platform.db.payment.update({ where: { id: paid.id }, data: { provider: 'stripe', providerChargeId: 'pi_3QaTestPaymentIntent01' } });

    await connectStripe(false);
    const test = await platform.call('/v2/invoices/list-payments', { id: invoice.id });
    expect(test.body.items[0]).toMatchObject({ provider: 'stripe', provider_reference: 'pi_3QaTestPaymentIntent01', provider_url: 'https://dashboard.stripe.com/test/payments/pi_3QaTestPaymentIntent01' });
    expect(test.body.items[1].provider_url).toBeUndefined();

    await connectStripe(true);
    const live = await platform.call('/v2/invoices/list-payments', { id: invoice.id });
    expect(live.body.items[0].provider_url).toBe('https://dashboard.stripe.com/payments/pi_3QaTestPaymentIntent01');

    // A decline Stripe named by its charge links there; one it named nothing for keeps our key, which links nowhere.
    await platform.db.payment.update({ where: { id: declined.id }, data: { provider: 'stripe', providerChargeId: 'ch_3QaTestCharge02' } });
    await platform.db.payment.update({ where: { id: paid.id }, data: { providerChargeId: `${paid.id}/stripe` } });
    const named = await platform.call('/v2/invoices/list-payments', { id: invoice.id });
    expect(named.body.items.map((item: { provider_url?: string }) => item.provider_url)).toEqual([undefined, 'https://dashboard.stripe.com/payments/ch_3QaTestCharge02']);
  });
});
