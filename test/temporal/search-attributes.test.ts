import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { invoiceCollectionWorkflowId, paymentInstrumentExpiryWorkflowId, subscriptionWorkflowId } from '../../domain/workflow-ids';
import { ACCOUNT_ID, BILLING_STATUS, CHANNEL_ID, CUSTOMER_ID, RESOURCE_ID } from '../../domain/workflow-search-attributes';
import { startTemporalDevServer, type DevServer } from '../../scripts/temporal/cli';
import { freePort } from '../../scripts/net/free-port';
import { startPlatform, type Platform } from '../support/platform';
import { merchant, waitFor } from '../invoices-payments/fixtures';

/**
 * The operators' queries of docs/operators.md, through the Temporal client against the CLI dev
 * server `npm start` runs (the time-skipping test server has no visibility queries): every
 * workflow the platform starts for a customer is found by CustomerId, and BillingStatus follows
 * the subscription's and the invoice's status.
 */

const GOOD = '4242424242424242';
const SOFT = '4000000000009995';
const DAY = 24 * 60 * 60 * 1000;

let dataDir: string;
let server: DevServer;
let platform: Platform;
let client: Client;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'search-attributes-'));
  server = await startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });
  platform = await startPlatform({ temporalAddress: server.address });
  client = platform.env.client;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Visibility is written after the workflow's own records: polled until the query sees `expected` rows. */
async function listed(query: string, expected: (rows: WorkflowExecutionInfo[]) => boolean): Promise<WorkflowExecutionInfo[]> {
  return waitFor(`workflows matching ${query}`, async () => {
    const rows: WorkflowExecutionInfo[] = [];
    for await (const row of client.workflow.list({ query })) rows.push(row);
    return expected(rows) ? rows : undefined;
  }, 60_000);
}

const ids = (rows: WorkflowExecutionInfo[]) => rows.map((row) => row.workflowId).sort();

async function monthlyPrice(m: ReturnType<typeof merchant>, amount: number): Promise<string> {
  const product = await m.ok('products/create', { name: 'Pro plan' });
  return (await m.ok('product-prices/create', { product_id: product.id, currency: 'EUR', amount, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } })).id;
}

describe('operator search attributes on the dev server', () => {
  it('finds a customer’s subscription and invoice collection by CustomerId, with their summaries and every attribute', async () => {
    const m = merchant(platform);
    const customerId = await m.customer(platform.channelIds[1]);
    const instrumentId = await m.card(customerId, GOOD);
    await m.setDefaultInstrument(customerId, instrumentId);
    const priceId = await monthlyPrice(m, 1_000);
    const subscription = await m.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: new Date(Date.now() + 5 * DAY).toISOString(),
    });
    const invoice = await m.openInvoice(customerId, { amount: 2_500, collection_method: 'CHARGE_AUTOMATICALLY' });

    const rows = await listed(`CustomerId = "${customerId}"`, (found) => found.length >= 3);
    expect(ids(rows)).toEqual(
      [subscriptionWorkflowId(subscription.id), invoiceCollectionWorkflowId(invoice.id), paymentInstrumentExpiryWorkflowId(instrumentId)].sort(),
    );
    const lifecycle = rows.find((row) => row.workflowId === subscriptionWorkflowId(subscription.id))!;
    expect(lifecycle.typedSearchAttributes.get(ACCOUNT_ID)).toBe(platform.accountId);
    expect(lifecycle.typedSearchAttributes.get(CHANNEL_ID)).toBe(platform.channelIds[1]);
    expect(lifecycle.typedSearchAttributes.get(CUSTOMER_ID)).toBe(customerId);
    expect(lifecycle.typedSearchAttributes.get(RESOURCE_ID)).toBe(subscription.id);
    expect(lifecycle.typedSearchAttributes.get(BILLING_STATUS)).toBe('CREATED');

    const described = await client.workflow.getHandle(subscriptionWorkflowId(subscription.id)).describe();
    expect(await described.staticSummary()).toBe(`Subscription ${subscription.id} for ${customerId} — EUR 10.00 monthly`);
    const collection = await client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id)).describe();
    expect(await collection.staticSummary()).toBe(`Collection of invoice ${invoice.id} for ${customerId} — EUR 25.00`);
    expect(collection.typedSearchAttributes.get(RESOURCE_ID)).toBe(invoice.id);
  });

  it('keeps BillingStatus on the subscription’s and the invoice’s status as they change', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, GOOD));
    const subscription = await m.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await monthlyPrice(m, 1_000), quantity: 1 }],
      starts_at: new Date(Date.now() + 5 * DAY).toISOString(),
    });
    const lifecycle = subscriptionWorkflowId(subscription.id);
    expect(ids(await listed(`CustomerId = "${customerId}" AND BillingStatus = "CREATED"`, (found) => found.length === 1))).toEqual([lifecycle]);

    await m.ok('subscriptions/cancel', { id: subscription.id, mode: 'IMMEDIATELY' });
    expect(ids(await listed(`CustomerId = "${customerId}" AND BillingStatus = "CANCELLED"`, (found) => found.length === 1))).toEqual([lifecycle]);
    expect(await listed(`CustomerId = "${customerId}" AND BillingStatus = "CREATED"`, (found) => found.length === 0)).toEqual([]);

    const paid = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY' });
    expect(ids(await listed(`ResourceId = "${paid.id}" AND BillingStatus = "PAID"`, (found) => found.length === 1))).toEqual([invoiceCollectionWorkflowId(paid.id)]);

    const declined = await m.customer();
    await m.setDefaultInstrument(declined, await m.card(declined, SOFT));
    const dunned = await m.openInvoice(declined, { collection_method: 'CHARGE_AUTOMATICALLY' });
    expect(ids(await listed(`BillingStatus = "DUNNING" AND CustomerId = "${declined}"`, (found) => found.length === 1))).toEqual([invoiceCollectionWorkflowId(dunned.id)]);
  });

  it('finds a subscription in REDEMPTION and its cycle invoice’s collection, started as its child, in DUNNING', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, SOFT));
    const subscription = await m.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: await monthlyPrice(m, 1_500), quantity: 1 }] });

    const redemption = await listed(`BillingStatus = "REDEMPTION" AND CustomerId = "${customerId}"`, (found) => found.length === 1);
    expect(ids(redemption)).toEqual([subscriptionWorkflowId(subscription.id)]);
    const [invoice] = await platform.db.invoice.findMany({ where: { subscriptionId: subscription.id } });
    const dunning = await listed(`WorkflowType = "invoiceCollectionWorkflow" AND BillingStatus = "DUNNING" AND CustomerId = "${customerId}"`, (found) => found.length === 1);
    expect(ids(dunning)).toEqual([invoiceCollectionWorkflowId(invoice!.id)]);
    expect(dunning[0]!.typedSearchAttributes.get(ACCOUNT_ID)).toBe(platform.accountId);
    const child = await client.workflow.getHandle(invoiceCollectionWorkflowId(invoice!.id)).describe();
    expect(await child.staticSummary()).toBe(`Collection of invoice ${invoice!.id} of subscription ${subscription.id} for ${customerId}`);
  });
});
