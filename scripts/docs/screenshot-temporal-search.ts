import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { newId } from '../../domain/ids';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { startInvoiceCollection } from '../../services/workflows/invoice-collection';
import { startPaymentInstrumentExpiry } from '../../services/workflows/payment-instrument-expiry';
import { startSubscriptionWorkflow } from '../../services/subscriptions/workflow-client';
import { launchBrowser } from '../../test/support/browser';
import { freePort } from '../net/free-port';
import { startTemporalDevServer } from '../temporal/cli';

/**
 * Takes docs/images/temporal-ui-search.png (docs/operators.md): a fresh dev server with the
 * platform's search attributes, one customer's subscription, invoice collection and card expiry
 * started through the platform's own typed starts (no worker: they stay as started), and the
 * Temporal Web UI asked `CustomerId = "cust_…"`. Run: `node --import tsx scripts/docs/screenshot-temporal-search.ts`.
 */

const OUTPUT = path.resolve(__dirname, '../../docs/images/temporal-ui-search.png');

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'temporal-ui-search-'));
  const server = await startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });
  const connection = await Connection.connect({ address: server.address });
  try {
    const client = new Client({ connection });
    const now = Date.now();
    const accountId = newId('account', now);
    const channelId = newId('channel', now);
    const customerId = newId('customer', now);
    const subscription = sampleSubscription({ accountId, channelId, customerId, now });
    await startSubscriptionWorkflow(client, subscription);
    await startInvoiceCollection(client, { id: newId('invoice', now), accountId, channelId, customerId, status: 'OPEN', amountDue: 2_500, currency: 'EUR' });
    await startPaymentInstrumentExpiry(client, { id: newId('paymentInstrument', now), accountId, channelId, customerId }, new Date(Date.UTC(2029, 11, 31, 23, 59, 59)));
    // Another customer's workflow, which the query leaves out.
    await startSubscriptionWorkflow(client, sampleSubscription({ accountId, channelId, customerId: newId('customer', now + 1), now }));

    const query = `CustomerId = "${customerId}"`;
    for (;;) {
      const { count } = await client.workflow.count(query);
      if (count === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 700 } });
      await page.goto(`${server.uiUrl}/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
      await page.getByText(subscription.id, { exact: false }).first().waitFor({ timeout: 60_000 });
      await mkdir(path.dirname(OUTPUT), { recursive: true });
      await page.screenshot({ path: OUTPUT, fullPage: true });
      process.stdout.write(`${OUTPUT}: ${query}\n`);
    } finally {
      await browser.close();
    }
  } finally {
    await connection.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A monthly EUR 10.00 subscription, ACTIVE, as the create would hand it to its workflow. */
function sampleSubscription(ids: { accountId: string; channelId: string; customerId: string; now: number }): SubscriptionState {
  const { accountId, channelId, customerId, now } = ids;
  const month = { value: 1, unit: 'MONTH' as const };
  return {
    id: newId('subscription', now),
    accountId,
    channelId,
    customerId,
    currency: 'EUR',
    status: 'ACTIVE',
    paymentInstrumentId: null,
    collectionMethod: 'CHARGE_AUTOMATICALLY',
    latestInvoiceId: null,
    description: null,
    merchantReference: null,
    metadata: null,
    discounts: [],
    trial: null,
    cancellation: null,
    settings: { on_dunning_exhausted: 'CANCEL' },
    startScheduledAt: null,
    startedAt: now,
    anchorAt: now,
    endsAt: null,
    nextCycleAt: now + 30 * 86_400_000,
    cycleCount: 1,
    version: 1,
    createdAt: now,
    updatedAt: now,
    lineItems: [
      {
        id: newId('subscriptionLineItem', now),
        productId: 'prod_example',
        productPriceId: 'pprc_example',
        productName: 'Pro plan',
        productDescription: null,
        billingType: 'RECURRING',
        amount: 1_000,
        quantity: 1,
        billingPeriod: month,
        startedAt: now,
        periodStartAt: now,
        periodEndAt: now + 30 * 86_400_000,
        billedAt: null,
        createdAt: now,
        updatedAt: now,
      },
    ],
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
