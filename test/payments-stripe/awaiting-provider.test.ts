import { MockActivityEnvironment } from '@temporalio/testing';
import { createInvoiceCollectionActivities } from '../../activities/invoice-collection';
import { payInvoice } from '../../services/payments/pay';
import { paymentById } from '../../services/payments/payment-rows';
import { applyProviderDecision } from '../../services/payments/provider-decisions';
import type { ChargeResult, PaymentProvider, ProcessedCharge } from '../../services/payments/providers/provider';
import type { ProviderRegistry } from '../../services/payments/providers/registry';
import { usePlatform } from '../support/platform';
import { eventTypesOf, merchant } from '../invoices-payments/fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(() => {
  m = merchant(platform);
});

/**
 * A provider that answers `processing` (as Stripe does for payment methods that settle later),
 * its books then saying whatever `decided` holds: what the charge path meets with Stripe's
 * delayed methods, which neither emulator produces for cards.
 */
function processingProvider() {
  const state: { decided: ProcessedCharge | null; charges: number } = { decided: null, charges: 0 };
  const provider: PaymentProvider = {
    name: 'sandbox-alpha',
    charge: async (request): Promise<ChargeResult> => {
      state.charges += 1;
      return { outcome: 'PROCESSING', providerChargeId: `late_${request.idempotencyKey}` };
    },
    lookup: async (key) => state.decided ?? { outcome: 'PROCESSING', providerChargeId: `late_${key}` },
  };
  return { state, registry: new Map([['sandbox-alpha', provider]]) as ProviderRegistry };
}

const scope = () => ({ accountId: platform.accountId, channels: null, keyChannels: null });
const invoiceRow = (id: string) => platform.db.invoice.findUniqueOrThrow({ where: { id } });

describe('a payment the provider is still processing', () => {
  it('is PENDING, holds the invoice against a second charge, and settles once when the provider decides', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    const { state, registry } = processingProvider();
    const deps = { db: platform.db, temporal: platform.env.client, now: () => new Date(), providers: registry };
    const pay = () => payInvoice(deps, scope(), { invoiceId: invoice.id, instrumentId }, (work) => platform.db.$transaction(work));

    const first = await pay();
    expect(first.payment).toMatchObject({ status: 'PENDING', provider: 'sandbox-alpha' });
    expect(first.invoice.status).toBe('OPEN');
    const held = await invoiceRow(invoice.id);
    expect(held.paymentInProgressId).not.toBeNull();
    // Nobody charges it again while the provider may still take the money.
    await expect(pay()).rejects.toMatchObject({ code: 'OPEN_PAYMENT_LIMIT_REACHED' });
    expect(state.charges).toBe(1);

    const payment = await paymentById(platform.db, first.payment.id!);
    expect(payment.status).toBe('AWAITING_PROVIDER');
    const approved: ProcessedCharge = { outcome: 'APPROVED', providerChargeId: payment.providerChargeId!, fee: 12 };
    const decided = await applyProviderDecision(deps, payment, approved);
    const repeated = await applyProviderDecision(deps, payment, approved);
    expect(decided).toEqual({ applied: true, paymentId: payment.id, status: 'SUCCEEDED' });
    expect(repeated).toMatchObject({ applied: false });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'PAID', amountPaid: 10_000, paymentInProgressId: null });
    expect((await eventTypesOf(platform, invoice.id)).filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);
  });

  it('keeps a collection attempt retrying until the provider decides, each retry asking its books', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId, { collection_method: 'SEND_INVOICE' });
    const { state, registry } = processingProvider();
    const activities = createInvoiceCollectionActivities({ db: platform.db, providers: registry });
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { paymentInstrumentId: instrumentId } });
    const attempt = () => new MockActivityEnvironment().run(activities.attemptInvoiceCollection, { invoiceId: invoice.id, attempt: 0, retriesLeft: 4 });

    await expect(attempt()).rejects.toThrow(/awaits its provider/);
    await expect(attempt()).rejects.toThrow(/awaits its provider/);
    expect(state.charges).toBe(1);
    state.decided = { outcome: 'HARD_DECLINED', providerChargeId: 'late', declineCode: 'expired_card', message: 'Expired.' };
    expect(await attempt()).toMatchObject({ status: 'OPEN', retry: false });
    const row = await invoiceRow(invoice.id);
    expect({ status: row.status, guard: row.paymentInProgressId }).toEqual({ status: 'OPEN', guard: null });
    expect(await eventTypesOf(platform, invoice.id)).toContain('INVOICE_PAYMENT_FAILED');
  });
});
