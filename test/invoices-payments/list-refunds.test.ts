import { usePlatform } from '../support/platform';
import { merchant } from './fixtures';

/**
 * Issue 44 (item 5, the invoice page lists the refunds made): invoices/list-refunds answers every
 * refund of an invoice, newest first, whether made by invoices/refund or by a credit note.
 */
const platform = usePlatform();

async function paidAndRefundedTwice() {
  const m = merchant(platform);
  const customerId = await m.customer();
  const invoice = await m.openInvoice(customerId, { amount: 4_200 });
  await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
  const first = await m.ok('invoices/refund', { id: invoice.id, amount: 700, reason: 'Late delivery' });
  const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 500, reason: 'ORDER_CHANGE', refund_amount: 500 });
  return { invoice, first: first.refund, note };
}

describe('invoices/list-refunds', () => {
  it('lists the refunds of the invoice newest first, those of its credit notes too, page by page', async () => {
    const { invoice, first, note } = await paidAndRefundedTwice();
    const page1 = await platform.call('/v2/invoices/list-refunds', { id: invoice.id, pagination: { page_size: 1 } });
    expect(page1.status).toBe(200);
    expect(page1.body.items).toEqual([
      {
        id: note.refund_id,
        invoice_id: invoice.id,
        payment_id: first.payment_id,
        amount: 500,
        currency: 'EUR',
        reason: `Credit note ${note.id}`,
        status: 'SUCCEEDED',
        provider: first.provider,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      },
    ]);
    const page2 = await platform.call('/v2/invoices/list-refunds', { id: invoice.id, pagination: { page_size: 1, next_page_token: page1.body.pagination.next_page_token } });
    expect(page2.body.items).toEqual([first]);
    expect(first).toMatchObject({ amount: 700, reason: 'Late delivery' });
    expect(page2.body.pagination.next_page_token).toBe('');
  });

  it('needs invoices:get and answers 404 for an invoice the key cannot see', async () => {
    const { invoice } = await paidAndRefundedTwice();
    const reader = await platform.call('/v2/api-keys/create', { name: 'reader', permissions: ['invoices:get'] });
    expect((await platform.call('/v2/invoices/list-refunds', { id: invoice.id }, { secret: reader.body.secret })).body.items).toHaveLength(2);
    const other = await platform.call('/v2/api-keys/create', { name: 'lister', permissions: ['invoices:list'] });
    const refused = await platform.call('/v2/invoices/list-refunds', { id: invoice.id }, { secret: other.body.secret });
    expect(refused).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { required_permission: 'invoices:get' } } });
    const elsewhere = await platform.call('/v2/api-keys/create', { name: 'channel three', channel_ids: [platform.channelIds[2]], permissions: ['invoices:get'] });
    expect((await platform.call('/v2/invoices/list-refunds', { id: invoice.id }, { secret: elsewhere.body.secret })).body.code).toBe('NOT_FOUND');
  });
});
