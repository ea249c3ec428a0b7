import { payInvoice } from '../../services/payments/pay';
import { createProviderRegistry } from '../../services/payments/providers/registry';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import type { TransactionRunner } from '../../services/payments/collect';
import { usePlatform } from '../support/platform';
import { merchant, providerChargesOf } from './fixtures';

/**
 * invoices/pay records its payment's final answer in the settlement's transaction (issue 45):
 * what happens when that transaction cannot record it or cannot commit.
 */
const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(async () => {
  m = merchant(platform);
});

const scope = () => ({ accountId: platform.accountId, channels: null, keyChannels: null });
const settleIn: TransactionRunner = (work) => platform.db.$transaction(work);

async function openInvoiceWithCard() {
  const customerId = await m.customer();
  const instrumentId = await m.card(customerId, '4242424242424242');
  const invoice = await m.openInvoice(customerId);
  return { invoiceId: invoice.id as string, instrumentId };
}

it('a settlement that fails to commit still leaves the payment recorded, and the same request’s retry settles without charging again', async () => {
  const { invoiceId, instrumentId } = await openInvoiceWithCard();
  const deps = { db: platform.db, temporal: platform.env.client, now: () => new Date() };
  const input = { invoiceId, instrumentId, request: 'settlement-lost' };
  const failing: TransactionRunner = () => Promise.reject(new Error('connection lost at commit'));

  await expect(payInvoice(deps, scope(), input, failing)).rejects.toThrow('connection lost at commit');
  const payment = await platform.db.payment.findFirstOrThrow({ where: { invoiceId } });
  expect({ status: payment.status, attemptKey: payment.attemptKey }).toEqual({ status: 'SUCCEEDED', attemptKey: null });
  expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: invoiceId }, select: { status: true, paymentInProgressId: true } })).toMatchObject({
    status: 'OPEN',
    paymentInProgressId: expect.stringContaining('.settlement-lost/'),
  });

  const retried = await payInvoice(deps, scope(), input, settleIn);
  expect(retried.invoice.status).toBe('PAID');
  expect(retried.payment).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
  expect(await providerChargesOf(platform, invoiceId)).toHaveLength(1);
});

it('a payment taken over while its provider answered settles with the answer of the run that took it over', async () => {
  const { invoiceId, instrumentId } = await openInvoiceWithCard();
  const registry = createProviderRegistry(platform.db);
  const providers = new Map(
    [...registry].map(([name, provider]): [string, PaymentProvider] => [
      name,
      {
        ...provider,
        // After charging, another run takes the payment over (as past its lease) and records the provider's answer itself.
        async charge(request) {
          const result = await provider.charge(request);
          await platform.db.payment.update({ where: { id: request.paymentId }, data: { attemptKey: 'another-run', claimedAt: new Date() } });
          await platform.db.payment.update({
            where: { id: request.paymentId },
            data: { status: 'SUCCEEDED', provider: name, providerChargeId: 'providerChargeId' in result ? result.providerChargeId : null, attemptKey: null, claimedAt: null },
          });
          return result;
        },
      },
    ]),
  );
  const deps = { db: platform.db, temporal: platform.env.client, now: () => new Date(), providers };

  const paid = await payInvoice(deps, scope(), { invoiceId, instrumentId }, settleIn);
  expect(paid.invoice.status).toBe('PAID');
  const payment = await platform.db.payment.findFirstOrThrow({ where: { invoiceId } });
  expect(paid.payment).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
  // The run that took it over wrote the payment; this run's answer was never recorded over it.
  expect(payment.attempts).toEqual([]);
  expect(await providerChargesOf(platform, invoiceId)).toHaveLength(1);
});
