import { formatDateTime } from '../../domain/datetime';
import type { PlannedInvoice, PlannedLine, PlannedUsage } from '../../domain/subscriptions/billing';
import { day, type SubscriptionState } from '../../domain/subscriptions/state';
import { emptyAggregate, quantityOf } from '../../domain/usage/aggregate';
import { formatDecimal, parseDecimal } from '../../domain/usage/decimal';
import { priceUsage, type UsageModel } from '../../domain/usage/pricing';
import type { UsageLineDetail } from '../../domain/usage/usage-line';
import type { Prisma } from '../../prisma/client';
import { lateEventDays } from '../usage/late-event-days';
import { meterWithVersions, type MeterWithVersions } from '../usage/meter-definitions';
import { usageOver } from '../usage/usage-over';

type Db = Prisma.TransactionClient;

interface UsagePrice {
  id: string;
  meterId: string;
  usageModel: UsageModel;
  productName: string;
}

interface Billed {
  productPriceId: string;
  periodStart: Date;
  periodEnd: Date;
  quantity: Prisma.Decimal;
  amount: bigint;
}

/** What a usage period bills: its lines and, when the invoice is issued, the record of what it billed. */
export interface UsageLines {
  lines: PlannedLine[];
  /** usage_billings rows to write with the invoice (none for a preview). */
  billings: { productPriceId: string; periodStart: Date; periodEnd: Date; quantity: string; amount: bigint; unchanged?: boolean }[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The late window's longest (USAGE_LATE_EVENT_DAYS is at most 400) plus the longest period: older periods are never read. */
const MAX_REMEASURE_DAYS = 400 + 366;

/**
 * The usage lines of a subscription invoice (docs/usage.md, "Invoices"), measured now: one line
 * per usage period the invoice plans, priced by its usage price, and one ADJUSTMENT line per
 * period billed before whose quantity late events have changed since, for the difference. The
 * same function makes the issued invoice (saveSubscriptionStepIn, which writes `billings` in its
 * transaction) and the preview (which writes nothing), so a preview taken when the invoice is
 * issued is that invoice.
 */
export async function usageLinesOf(db: Db, state: SubscriptionState, planned: PlannedInvoice, issuedAt: number): Promise<UsageLines> {
  // Usage rides on cycle invoices only: a trial's or a proration's bills what it says.
  const usagePriceIds = state.lineItems.filter((line) => line.billingType === 'USAGE').map((line) => line.productPriceId);
  if (planned.kind !== 'cycle' || (usagePriceIds.length === 0 && !planned.usage?.length)) return { lines: [], billings: [] };
  const lateMs = lateEventDays() * DAY_MS;
  // One after the other: a transaction's connection runs one query at a time.
  const prices = await db.productPrice.findMany({
      where: { accountId: state.accountId, id: { in: [...new Set([...usagePriceIds, ...(planned.usage ?? []).map((usage) => usage.productPriceId)])] } },
      select: { id: true, meterId: true, usageModel: true, product: { select: { name: true } } },
  });
  // A billed period can still change while events stamped inside it can be accepted: until the
  // late window after its end has passed since it was last measured (updated_at). Every period
  // measured here is stamped again, so each is measured until nothing can reach it any more.
  const billed = (
    await db.usageBilling.findMany({
      where: { subscriptionId: state.id, periodEnd: { gt: new Date(issuedAt - MAX_REMEASURE_DAYS * DAY_MS) } },
      select: { productPriceId: true, periodStart: true, periodEnd: true, quantity: true, amount: true, updatedAt: true },
      orderBy: [{ periodStart: 'asc' }, { productPriceId: 'asc' }],
    })
  ).filter((row) => row.periodEnd.getTime() > row.updatedAt.getTime() - lateMs);
  const priceById = new Map<string, UsagePrice>(
    prices.flatMap((price) =>
      price.meterId && price.usageModel ? [[price.id, { id: price.id, meterId: price.meterId, usageModel: price.usageModel as unknown as UsageModel, productName: price.product.name }]] : [],
    ),
  );
  const meters = new Map<string, MeterWithVersions>();
  const meterOf = async (meterId: string): Promise<MeterWithVersions> => {
    let meter = meters.get(meterId);
    if (!meter) {
      meter = (await meterWithVersions(db, state.accountId, meterId)) ?? undefined;
      if (!meter) throw new Error(`Meter ${meterId} of a usage price is gone.`);
      meters.set(meterId, meter);
    }
    return meter;
  };
  const measure = async (price: UsagePrice, start: number, end: number) => {
    const meter = await meterOf(price.meterId);
    const aggregate = (await usageOver(db, { accountId: state.accountId, meter, customerId: state.customerId, from: start, to: end, groupBy: false })).get('*') ?? emptyAggregate();
    const quantity = quantityOf(meter.aggregation, aggregate);
    return { meter, quantity, charge: priceUsage(price.usageModel, quantity) };
  };
  const tax = (productPriceId: string) => state.lineItems.find((line) => line.productPriceId === productPriceId)?.tax ?? null;

  const lines: PlannedLine[] = [];
  const billings: UsageLines['billings'] = [];
  // Late events first: the adjustments of earlier periods, oldest first, then this invoice's periods.
  const planning = new Set((planned.usage ?? []).map((usage) => `${usage.productPriceId}/${usage.start}`));
  for (const before of billed as Billed[]) {
    if (planning.has(`${before.productPriceId}/${before.periodStart.getTime()}`)) continue;
    const price = priceById.get(before.productPriceId);
    if (!price) continue;
    const { meter, quantity, charge } = await measure(price, before.periodStart.getTime(), before.periodEnd.getTime());
    const billedQuantity = parseDecimal(before.quantity.toFixed(12))!;
    if (quantity === billedQuantity) {
      billings.push({ productPriceId: price.id, periodStart: before.periodStart, periodEnd: before.periodEnd, quantity: formatDecimal(quantity), amount: before.amount, unchanged: true });
      continue;
    }
    const difference = BigInt(charge.amount) - before.amount;
    const period = { start_at: formatDateTime(before.periodStart), end_at: formatDateTime(before.periodEnd) };
    const usage: UsageLineDetail = {
      kind: 'ADJUSTMENT',
      meter_id: meter.meterId,
      aggregation: meter.aggregation,
      period,
      quantity: formatDecimal(quantity),
      tiers: charge.tiers,
      previously_billed: { quantity: formatDecimal(billedQuantity), amount: Number(before.amount) },
    };
    // Invoice lines are never negative: a period whose quantity fell (a LATEST meter's late
    // event) shows the change at 0 and keeps what was billed (docs/usage.md, "Late events").
    const amount = difference > 0n ? Number(difference) : 0;
    lines.push({
      productPriceId: price.id,
      description: `${price.productName}: late usage of ${day(before.periodStart.getTime())} – ${day(before.periodEnd.getTime())} (${formatDecimal(billedQuantity)} billed, now ${formatDecimal(quantity)})`,
      amount,
      quantity: 1,
      tax: tax(price.id),
      usage,
    });
    billings.push({ productPriceId: price.id, periodStart: before.periodStart, periodEnd: before.periodEnd, quantity: formatDecimal(quantity), amount: before.amount + BigInt(amount) });
  }
  for (const usage of planned.usage ?? []) lines.push(await periodLine(usage));
  return { lines, billings };

  async function periodLine(usage: PlannedUsage): Promise<PlannedLine> {
    const price = priceById.get(usage.productPriceId);
    if (!price) throw new Error(`Usage price ${usage.productPriceId} has no meter or model.`);
    const { meter, quantity, charge } = await measure(price, usage.start, usage.end);
    billings.push({ productPriceId: price.id, periodStart: new Date(usage.start), periodEnd: new Date(usage.end), quantity: formatDecimal(quantity), amount: BigInt(charge.amount) });
    return {
      productPriceId: price.id,
      description: `${usage.productName} (${day(usage.start)} – ${day(usage.end)}): ${formatDecimal(quantity)}`,
      amount: charge.amount,
      quantity: 1,
      tax: usage.tax,
      usage: {
        kind: 'PERIOD',
        meter_id: meter.meterId,
        aggregation: meter.aggregation,
        period: { start_at: formatDateTime(new Date(usage.start)), end_at: formatDateTime(new Date(usage.end)) },
        quantity: formatDecimal(quantity),
        tiers: charge.tiers,
      },
    };
  }
}

/** Records what an issued invoice billed of each usage period, in its transaction. */
export async function recordUsageBillings(db: Db, subscriptionId: string, invoiceId: string, billings: UsageLines['billings'], now: Date): Promise<void> {
  for (const billing of billings) {
    const key = { subscriptionId_productPriceId_periodStart: { subscriptionId, productPriceId: billing.productPriceId, periodStart: billing.periodStart } };
    if (billing.unchanged) {
      // Measured again and found the same: only the time it was measured moves on.
      await db.usageBilling.update({ where: key, data: { updatedAt: now } });
      continue;
    }
    const values = { periodEnd: billing.periodEnd, quantity: billing.quantity, amount: billing.amount, invoiceId, updatedAt: now };
    await db.usageBilling.upsert({ where: key, create: { subscriptionId, productPriceId: billing.productPriceId, periodStart: billing.periodStart, ...values }, update: values });
  }
}
