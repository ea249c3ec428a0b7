import type { Platform } from '../support/platform';
import { merchant } from '../invoices-payments/fixtures';

export const GOOD = '4242424242424242';

/** Merchant steps for the credit note tests, over the real API. */
export function creditNoteMerchant(platform: Platform) {
  const m = merchant(platform);
  const call = (action: string, body: unknown) => platform.call(`/v2/credit-notes/${action}`, body);

  /** A finalized SEND_INVOICE invoice: 3 × 1,000 at 19 % EXCLUSIVE, 2 × 1,075 at 7.5 % INCLUSIVE, 1 × 500 untaxed. */
  async function taxedInvoice(customerId?: string) {
    const customer = customerId ?? (await m.customer());
    await m.ok('customers/patch', { id: customer, address: { country: 'DEU' } });
    const draft = await m.ok('invoices/create', {
      customer_id: customer,
      currency: 'EUR',
      line_items: [
        { amount: 1_000, description: 'Seats', quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 19 } },
        { amount: 1_075, description: 'Books', quantity: 2, tax: { mode: 'INCLUSIVE', rate: 7.5 } },
        { amount: 500, description: 'Setup', quantity: 1 },
      ],
    });
    return { customerId: customer, invoice: await m.ok('invoices/finalize', { id: draft.id }) };
  }

  /** A PAID invoice of `amount` (one untaxed line), paid with a good card. */
  async function paidInvoice(amount = 10_000) {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount });
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, GOOD) });
    return { customerId, invoice: paid.invoice, payment: paid.payment };
  }

  return { ...m, call, taxedInvoice, paidInvoice };
}

export async function creditNoteEvents(platform: Platform, creditNoteId?: string) {
  const rows = await platform.db.outboxEvent.findMany({ where: { eventType: { startsWith: 'CREDIT_NOTE_' } }, orderBy: { id: 'asc' } });
  return rows.filter((row) => !creditNoteId || (row.data as { credit_note: { id: string } }).credit_note.id === creditNoteId);
}
