import { Client } from '@temporalio/client';
import { invoiceCollectionWorkflowId } from '../../domain/workflow-ids';
import { eventTypesOf, providerChargesOf, waitFor } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { creditNoteMerchant, GOOD } from './fixtures';

const platform = usePlatform();
let m: ReturnType<typeof creditNoteMerchant>;

beforeAll(() => {
  m = creditNoteMerchant(platform);
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const SOFT = '4000000000009995';

const statusOf = async (id: string) => (await platform.db.invoice.findUniqueOrThrow({ where: { id } })).status;

async function inDunning() {
  const customerId = await m.customer();
  const soft = await m.card(customerId, SOFT);
  await m.setDefaultInstrument(customerId, soft);
  const invoice = await m.openInvoice(customerId, { amount: 10_000, collection_method: 'CHARGE_AUTOMATICALLY' });
  await waitFor('dunning', async () => (await statusOf(invoice.id)) === 'DUNNING');
  const replaceCard = async () => {
    await m.setDefaultInstrument(customerId, await m.card(customerId, GOOD));
    await m.ok('payment-instruments/revoke', { id: soft });
  };
  return { invoice, workflowId: invoiceCollectionWorkflowId(invoice.id), replaceCard };
}

async function collectionResult(workflowId: string) {
  const client = new Client({ connection: platform.env.connection });
  await waitFor('the collection to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');
  return client.workflow.getHandle(workflowId).result();
}

describe('credit notes during dunning', () => {
  it('the next retry charges the lowered amount_due', async () => {
    const { invoice, workflowId, replaceCard } = await inDunning();
    await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 4_000, reason: 'PRODUCT_UNSATISFACTORY' });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'DUNNING', amount_due: 6_000 });
    await replaceCard();
    await platform.env.sleep(DAY + HOUR);
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 2 });
    expect((await providerChargesOf(platform, invoice.id)).map((c) => [c.outcome, c.amount])).toEqual([
      ['SOFT_DECLINED', 10_000],
      ['SOFT_DECLINED', 10_000],
      ['APPROVED', 6_000],
    ]);
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });
  });

  it('a credit of everything still due settles the invoice PAID and ends the collection with no further charge', async () => {
    const { invoice, workflowId } = await inDunning();
    await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 10_000, reason: 'FRAUDULENT' });
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 1 });
    await platform.env.sleep(8 * DAY);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(2);
    expect((await eventTypesOf(platform, invoice.id)).slice(-1)).toEqual(['INVOICE_PAID']);
  });
});
