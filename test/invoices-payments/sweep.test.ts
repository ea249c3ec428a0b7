import { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { invoiceCollectionWorkflowId, PAYMENT_SWEEP_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { PaymentSweepResult } from '../../activities/payment-sweep';
import type { paymentSweepWorkflow } from '../../workflows/payment-sweep';
import { payInvoice } from '../../services/payments/pay';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import { createProviderRegistry, type ProviderRegistry } from '../../services/payments/providers/registry';
import { sweepAbandonedPayments } from '../../services/payments/sweep';
import { usePlatform } from '../support/platform';
import { abandonedRefund, eventTypesOf, eventsOf, merchant, providerChargesOf, waitFor } from './fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(async () => {
  m = merchant(platform);
});

const invoiceRow = (id: string) => platform.db.invoice.findUniqueOrThrow({ where: { id } });
const providerRefunds = (chargeId: string) => platform.db.sandboxProviderRefund.findMany({ where: { chargeId } });

async function paidInvoice() {
  const customerId = await m.customer();
  const invoice = await m.openInvoice(customerId);
  const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
  return { invoice: paid.invoice, payment: await platform.db.payment.findUniqueOrThrow({ where: { id: paid.payment.id } }) };
}

/** What each sweep reported, from the histories of the first execution and every one it continued as. */
async function sweepsSince(client: Client, firstRunId: string): Promise<PaymentSweepResult[][]> {
  const runs: PaymentSweepResult[][] = [];
  for (let runId: string | null | undefined = firstRunId; runId; ) {
    const history = await client.workflow.getHandle(PAYMENT_SWEEP_WORKFLOW_ID, runId).fetchHistory();
    runs.push(
      history.events!.flatMap((event) => {
        const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
        return payload ? [defaultPayloadConverter.fromPayload<PaymentSweepResult>(payload)] : [];
      }),
    );
    runId = history.events!.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

describe('the payment sweeper', () => {
  it('finishes abandoned pays and refunds once, in bounded batches, and a later sweep finds nothing', async () => {
    const client = new Client({ connection: platform.env.connection });
    const expired = () => new Date(Date.now() - 6 * 60 * 1000);
    // Pays whose process died: after the provider charged; before it was asked; before a decline was asked.
    const charged = await m.abandonedPay({ claimedAt: expired(), charged: true });
    const claimed = await m.abandonedPay({ claimedAt: expired(), charged: false });
    const declined = await m.abandonedPay({ claimedAt: expired(), charged: false, number: '4000000000000002' });
    // A pay still within its lease: its request may be alive, so it is not the sweeper's.
    const live = await m.abandonedPay({ claimedAt: new Date(), charged: true });
    // A manual pay of an invoice in dunning: settling it must end the collection at once.
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, '4000000000009995'));
    const automatic = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY' });
    await waitFor('dunning', async () => (await invoiceRow(automatic.id)).status === 'DUNNING');
    const dunned = await m.abandonedPay({ claimedAt: expired(), charged: false, of: { invoice: automatic, customerId } });
    // Refunds recorded and reserved before their request died: one the provider makes, one it refuses.
    const refunded = await paidInvoice();
    await abandonedRefund(platform, refunded.invoice, refunded.payment, 'rfnd_swept');
    const refused = await paidInvoice();
    await abandonedRefund(platform, refused.invoice, refused.payment, 'rfnd_refused', 20_000);

    const handle = await platform.env.client.workflow.start<typeof paymentSweepWorkflow>('paymentSweepWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: PAYMENT_SWEEP_WORKFLOW_ID,
      args: [{ intervalMinutes: 5, batchSize: 2, runsPerExecution: 2 }],
    });
    await waitFor('every abandoned pay settled', async () => {
      const rows = await Promise.all([charged, claimed, declined, dunned].map((pay) => invoiceRow(pay.invoice.id)));
      return rows.every((row) => row.paymentInProgressId === null);
    });
    await waitFor('the refunds settled', async () => (await platform.db.refund.count({ where: { id: { in: ['rfnd_swept', 'rfnd_refused'] }, status: 'PENDING' } })) === 0);

    const check = async () => {
      for (const pay of [charged, claimed, dunned]) {
        expect(await invoiceRow(pay.invoice.id)).toMatchObject({ status: 'PAID', amountDue: 0, amountPaid: 10_000 });
        const paidEvents = (await eventsOf(platform, pay.invoice.id)).filter((e) => e.eventType === 'INVOICE_PAID');
        expect(paidEvents).toHaveLength(1);
        const payment = await platform.db.payment.findUniqueOrThrow({ where: { accountId_idempotencyKey: { accountId: platform.accountId, idempotencyKey: pay.key } } });
        expect((paidEvents[0]!.data as { payment: { id: string } }).payment.id).toBe(payment.id);
      }
      expect((await providerChargesOf(platform, charged.invoice.id)).map((c) => c.outcome)).toEqual(['APPROVED']);
      expect((await providerChargesOf(platform, claimed.invoice.id)).map((c) => c.outcome)).toEqual(['APPROVED']);
      expect((await providerChargesOf(platform, dunned.invoice.id)).map((c) => c.outcome)).toEqual(['SOFT_DECLINED', 'SOFT_DECLINED', 'APPROVED']);
      expect(await platform.db.payment.findFirst({ where: { invoiceId: charged.invoice.id } })).toMatchObject({ id: charged.paymentId });

      // The decline is settled as pay settles one: the invoice keeps its status and can be claimed again.
      expect(await invoiceRow(declined.invoice.id)).toMatchObject({ status: 'OPEN', paymentInProgressId: null });
      expect(await eventTypesOf(platform, declined.invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED']);

      expect(await invoiceRow(live.invoice.id)).toMatchObject({ status: 'OPEN', paymentInProgressId: live.key });
      expect(await eventTypesOf(platform, live.invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED']);

      expect(await platform.db.refund.findUniqueOrThrow({ where: { id: 'rfnd_swept' } })).toMatchObject({ status: 'SUCCEEDED' });
      expect((await providerRefunds(refunded.payment.providerChargeId!)).map((r) => r.amount)).toEqual([3_000]);
      expect(await invoiceRow(refunded.invoice.id)).toMatchObject({ amountRefunded: 3_000 });
      expect((await eventTypesOf(platform, refunded.invoice.id)).filter((t) => t === 'INVOICE_PAYMENT_REFUNDED')).toHaveLength(1);

      // Refused: FAILED, and the amount reserved for it is given back.
      expect(await platform.db.refund.findUniqueOrThrow({ where: { id: 'rfnd_refused' } })).toMatchObject({ status: 'FAILED' });
      expect(await invoiceRow(refused.invoice.id)).toMatchObject({ amountRefunded: 0 });
      expect(await platform.db.payment.findUniqueOrThrow({ where: { id: refused.payment.id } })).toMatchObject({ refundedAmount: 0 });
      expect(await providerRefunds(refused.payment.providerChargeId!)).toHaveLength(0);
      expect(await eventTypesOf(platform, refused.invoice.id)).not.toContain('INVOICE_PAYMENT_REFUNDED');
    };
    await check();

    // The sweep signalled the collection: it ends now, not at its next retry a day later.
    const collection = client.workflow.getHandle(invoiceCollectionWorkflowId(automatic.id));
    await waitFor('the collection to end', async () => (await collection.describe()).status.name === 'COMPLETED');
    expect(await collection.result()).toEqual({ status: 'PAID', attempts: 1 });

    // Two full batches of two (four pays, two refunds) took the first execution's two runs, and it
    // handed over to a new one; every sweep after them finds nothing left to do.
    await platform.env.sleep('12 minutes');
    const [first, ...later] = await sweepsSince(client, handle.firstExecutionRunId);
    expect(first).toEqual([
      { charges: 2, refunds: 2, stripeEvents: 0, failed: 0, more: true },
      { charges: 2, refunds: 0, stripeEvents: 0, failed: 0, more: true },
    ]);
    expect(later.flat().length).toBeGreaterThanOrEqual(2);
    expect(later.flat().every((s) => s.charges === 0 && s.refunds === 0 && s.failed === 0 && !s.more)).toBe(true);
    expect((await client.workflow.getHandle(PAYMENT_SWEEP_WORKFLOW_ID).describe()).status.name).toBe('RUNNING');
    await check();
    await client.workflow.getHandle(PAYMENT_SWEEP_WORKFLOW_ID).terminate('test over');
  });

  it('records once a pay whose process died after the provider charged and before the answer was recorded', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    const charges: string[] = [];
    let wake!: () => void;
    // The request's provider answers, then its process stops there: nothing after the call runs.
    const dying = new Map(
      [...createProviderRegistry(platform.db)].map(([name, provider]): [string, PaymentProvider] => [
        name,
        {
          name,
          lookup: (key, account) => provider.lookup(key, account),
          charge: async (req) => {
            charges.push(name);
            const answer = await provider.charge(req);
            await new Promise<void>((resolve) => (wake = resolve));
            return answer;
          },
        },
      ]),
    ) as ProviderRegistry;
    const scope = { accountId: platform.accountId, channels: null, keyChannels: null };
    const dead = payInvoice(
      { db: platform.db, temporal: platform.env.client, now: () => new Date(), providers: dying },
      scope,
      { invoiceId: invoice.id, instrumentId },
      (work) => platform.db.$transaction(work),
    );
    await waitFor('the provider to charge', async () => (await providerChargesOf(platform, invoice.id)).length === 1);
    expect(await platform.db.payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({ status: 'PROCESSING' });

    // Past the pay's lease the sweeper finishes it: the provider's books hold the charge under its key.
    const later = new Date(Date.now() + 6 * 60 * 1000);
    const sweep = () =>
      sweepAbandonedPayments(
        { db: platform.db, temporal: platform.env.client, now: () => later, providers: dying, progress: () => undefined, warn: () => undefined },
        { limit: 10 },
      );
    // (It also finishes any other claim of this file that is abandoned by then.)
    expect(await sweep()).toMatchObject({ failed: 0 });
    expect(charges).toEqual(['sandbox-alpha']);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'PAID', amountPaid: 10_000, paymentInProgressId: null });
    const payment = await platform.db.payment.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(payment).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-alpha', attemptKey: null });

    // The request's process comes back: it records nothing more and answers with the recorded payment.
    wake();
    expect(await dead).toMatchObject({ invoice: { status: 'PAID' }, payment: { id: payment.id, status: 'SUCCEEDED' } });
    expect(await sweep()).toMatchObject({ charges: 0, failed: 0 });
    expect((await eventsOf(platform, invoice.id)).filter((e) => e.eventType === 'INVOICE_PAID')).toHaveLength(1);
    expect((await providerChargesOf(platform, invoice.id)).map((c) => c.outcome)).toEqual(['APPROVED']);
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(1);
  });
});
