import { randomUUID } from 'node:crypto';
import { newId } from '../../domain/ids';
import { billCycle } from '../../domain/subscriptions/billing';
import { initialState, scheduleOf } from '../../domain/subscriptions/initial-state';
import { paymentSettled } from '../../domain/subscriptions/payment-outcome';
import type { Database } from '../../prisma/client';
import { insertSubscription } from '../../services/subscriptions/repository';
import { newLines, resolvePrices } from '../../services/subscriptions/references';

/**
 * An ACTIVE monthly subscription of one line per amount (quantity 1, taxed EXCLUSIVE 19 %, the
 * customer given an address country), its first period billed and paid, written as the workflow
 * would have left its row: this run has no Temporal server, and invoices/preview reads only the row.
 */
export async function seedActiveSubscription(db: Database, payer: { accountId: string; channelId: string; customerId: string; instrumentId: string }, amounts: readonly number[]) {
  const now = Date.now();
  const at = new Date(now);
  await db.customer.update({ where: { id: payer.customerId }, data: { address: { country: 'DEU', city: 'Berlin' } } });
  const product = await db.product.create({ data: { id: randomUUID(), accountId: payer.accountId, name: 'Bench plan', createdAt: at, updatedAt: at } });
  const priceIds: string[] = [];
  for (const amount of amounts) {
    const price = await db.productPrice.create({
      data: { id: randomUUID(), accountId: payer.accountId, productId: product.id, currency: 'EUR', amount, billingType: 'RECURRING', billingPeriodValue: 1, billingPeriodUnit: 'MONTH', createdAt: at, updatedAt: at },
    });
    priceIds.push(price.id);
  }
  const resolved = await resolvePrices(db, payer.accountId, priceIds.map((id, index) => ({ product_price_id: id, field: `line_items[${index}]` })), undefined);
  const lines = newLines(resolved, priceIds.map(() => ({ quantity: 1, tax: { mode: 'EXCLUSIVE' as const, rate: 19 } })), now);
  const { state } = initialState(
    {
      id: newId('subscription', now),
      accountId: payer.accountId,
      channelId: payer.channelId,
      customerId: payer.customerId,
      currency: resolved.currency,
      paymentInstrumentId: payer.instrumentId,
      collectionMethod: 'CHARGE_AUTOMATICALLY',
      description: null,
      merchantReference: null,
      metadata: null,
      discounts: [],
      settings: {},
      lines,
    },
    scheduleOf({ startsAt: null, trial: null, anchorAt: null, endsAt: null }, now),
    now,
  );
  const billed = billCycle(state, now, now);
  const active = paymentSettled(billed.step.state, billed.invoice.kind, true, now);
  return insertSubscription(db, active.state, []);
}
