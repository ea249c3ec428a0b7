import { payInvoice } from '../../services/payments/pay';
import { applyProviderDecision } from '../../services/payments/provider-decisions';
import { createProviderRegistry } from '../../services/payments/providers/registry';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import type { TransactionRunner } from '../../services/payments/collect';
import type { PaymentRow } from '../../services/payments/payment-rows';
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

it('a payment taken over while its provider answered settles with the answer of the run that took it over, not its own', async () => {
  const { invoiceId, instrumentId } = await openInvoiceWithCard();
  const registry = createProviderRegistry(platform.db);
  const providers = new Map(
    [...registry].map(([name, provider]): [string, PaymentProvider] => [
      name,
      {
        ...provider,
        // After charging, another run takes the payment over (as past its lease) and records an answer of its own: a
        // decline, unlike this run's success, so that settling with this run's answer cannot pass for settling with its.
        async charge(request) {
          const result = await provider.charge(request);
          await platform.db.payment.update({ where: { id: request.paymentId }, data: { attemptKey: 'another-run', claimedAt: new Date() } });
          await platform.db.payment.update({
            where: { id: request.paymentId },
            data: { status: 'DECLINED', provider: name, declineCode: 'do_not_honor', declineMessage: 'Declined.', attemptKey: null, claimedAt: null },
          });
          return result;
        },
      },
    ]),
  );
  const deps = { db: platform.db, temporal: platform.env.client, now: () => new Date(), providers };

  const settled = await payInvoice(deps, scope(), { invoiceId, instrumentId }, settleIn);
  expect(settled.invoice.status).toBe('OPEN');
  const payment = await platform.db.payment.findFirstOrThrow({ where: { invoiceId } });
  expect(payment).toMatchObject({ status: 'DECLINED', declineCode: 'do_not_honor' });
  expect(settled.payment).toMatchObject({ id: payment.id, status: 'DECLINED' });
  // The run that took it over wrote the payment; this run's answer was never recorded over it.
  expect(payment.attempts).toEqual([]);
  expect(await providerChargesOf(platform, invoiceId)).toHaveLength(1);
});

it('a pay queued on the lock of a settlement that leaves a payment waiting for its customer withdraws that payment before charging', async () => {
  const customerId = await m.customer();
  const authenticating = await m.card(customerId, '4242424242424242');
  const plain = await m.card(customerId, '4242424242424242');
  const invoiceId = (await m.openInvoice(customerId)).id as string;
  // The providers ask the customer to authenticate a charge of the first card; withdrawing it declines it.
  const withdrawn: string[] = [];
  const providers = new Map(
    [...createProviderRegistry(platform.db)].map(([name, provider]): [string, PaymentProvider] => [
      name,
      {
        ...provider,
        async charge(request) {
          if (request.card.instrumentId !== authenticating) return provider.charge(request);
          return { outcome: 'REQUIRES_ACTION', providerChargeId: `intent_${request.paymentId}`, nextActionUrl: 'https://provider.example/3ds' };
        },
        async cancel(key) {
          withdrawn.push(key);
          return { outcome: 'HARD_DECLINED', providerChargeId: `intent_${key}`, declineCode: 'payment_intent_canceled', message: 'Canceled.' };
        },
      },
    ]),
  );
  const deps = { db: platform.db, temporal: platform.env.client, now: () => new Date(), providers };
  // The first pay's settlement holds the invoice's lock, uncommitted, until the second pay waits for it.
  let settled!: () => void;
  const settling = new Promise<void>((resolve) => (settled = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const heldOpen: TransactionRunner = (work) =>
    platform.db.$transaction(async (tx) => {
      const result = await work(tx);
      settled();
      await released;
      return result;
    });

  const first = payInvoice(deps, scope(), { invoiceId, instrumentId: authenticating }, heldOpen);
  await settling;
  const second = payInvoice(deps, scope(), { invoiceId, instrumentId: plain }, settleIn);
  for (let waiting = 0; waiting === 0; ) {
    [{ waiting }] = await platform.db.$queryRaw<[{ waiting: number }]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  }
  release();
  expect((await first).payment.status).toBe('REQUIRES_ACTION');
  expect((await second).payment.status).toBe('SUCCEEDED');

  // The customer authenticates the first charge afterwards: it was withdrawn, so it pays nothing more.
  const waiting = (await platform.db.payment.findFirstOrThrow({ where: { invoiceId, instrumentId: authenticating } })) as PaymentRow;
  await applyProviderDecision({ db: platform.db, now: () => new Date() }, waiting, { outcome: 'APPROVED', providerChargeId: `intent_${waiting.id}`, fee: 0 });
  expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: invoiceId }, select: { status: true, amountPaid: true } })).toEqual({ status: 'PAID', amountPaid: 10_000 });
  expect(withdrawn).toEqual([`${waiting.id}/sandbox-alpha`]);
});
