import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { BillingPeriod } from '../../domain/billing-periods';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { NewLine, PriceChange } from '../../domain/subscriptions/update';
import type { LineTax } from '../../domain/subscriptions/state';
import { lacksTaxCountry } from '../../domain/tax-country';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

type Transaction = Prisma.TransactionClient;

/** A line's `tax` as a request gives it. */
export interface LineTaxRequest {
  category_id?: string;
  mode: LineTax['mode'];
  rate: number;
}
import { chargeableInstrument, chargedInstrumentId, defaultInstrumentOf } from '../payment-instruments/chargeable-instrument';

/** A catalogue price a subscription line bills, with its product's name and description, as the line keeps it. */
export interface Price {
  id: string;
  currency: string;
  amount: number;
  taxCategoryId: string | null;
  billingType: string;
  billingPeriodValue: number | null;
  billingPeriodUnit: string | null;
  productId: string;
  product: { name: string; description: string | null };
}

/**
 * The prices and their products in one statement: Prisma's nested select sent two, through its
 * interpreter, on every subscriptions/create (issue 13). test/subscriptions/prices-read.test.ts
 * holds it equal to Prisma's reading.
 */
const pricesSql = sqlStatement(
  'product_prices.with_product',
  `SELECT p.id, p.currency, p.amount, p.tax_category_id AS "taxCategoryId", p.billing_type AS "billingType",
          p.billing_period_value AS "billingPeriodValue", p.billing_period_unit AS "billingPeriodUnit", p.product_id AS "productId",
          json_build_object('name', pr.name, 'description', pr.description) AS product
   FROM product_prices p JOIN products pr ON pr.id = p.product_id
   WHERE p.account_id = $1 AND p.id = ANY($2::text[])`,
);

/** The account's prices among `ids`, by id. */
export async function findPrices(tx: Transaction | Database, accountId: string, ids: readonly string[]): Promise<Map<string, Price>> {
  const prices = await readRows<Price>(tx, pricesSql, [accountId, [...new Set(ids)]]);
  return new Map(prices.map((price) => [price.id, price]));
}

function priceChange(price: Price): PriceChange {
  return {
    productId: price.productId,
    productPriceId: price.id,
    productName: price.product.name,
    productDescription: price.product.description,
    billingType: price.billingType as PriceChange['billingType'],
    amount: price.amount,
    billingPeriod: price.billingPeriodValue !== null ? { value: price.billingPeriodValue, unit: price.billingPeriodUnit as BillingPeriod['unit'] } : null,
  };
}

/** The prices a request names, resolved, with each price's tax category. */
export interface ResolvedPrices {
  currency: string;
  prices: PriceChange[];
  taxCategoryIds: Map<string, string | null>;
}

/**
 * Prices named by a request, resolved: 422 PRODUCT_PRICE_NOT_FOUND for one the account lacks,
 * CURRENCY_MISMATCH for one in another currency than `currency` (create: the first price's).
 */
export async function resolvePrices(
  tx: Transaction,
  accountId: string,
  requested: readonly { product_price_id: string; field: string }[],
  currency: string | undefined,
): Promise<ResolvedPrices> {
  const byId = await findPrices(tx, accountId, requested.map((r) => r.product_price_id));
  const resolved = resolveFoundPrices(byId, requested, currency);
  await requireActiveMeters(tx, requested, byId, { lock: true });
  return resolved;
}

/** resolvePrices' checks on prices read already (findPrices), without the meters' lock: requireActiveMeters takes it. */
export function resolveFoundPrices(
  byId: Map<string, Price>,
  requested: readonly { product_price_id: string; field: string }[],
  currency: string | undefined,
): ResolvedPrices {
  let expected = currency;
  const prices = requested.map(({ product_price_id, field }) => {
    const price = byId.get(product_price_id);
    if (!price) throw new ApiError('PRODUCT_PRICE_NOT_FOUND', `Product price ${product_price_id} does not exist.`, { field, product_price_id });
    expected ??= price.currency;
    if (price.currency !== expected) {
      throw new ApiError('CURRENCY_MISMATCH', `Product price ${price.id} is in ${price.currency}, the subscription in ${expected}.`, {
        field,
        product_price_id: price.id,
        price_currency: price.currency,
        currency: expected,
      });
    }
    return priceChange(price);
  });
  return { currency: expected!, prices, taxCategoryIds: new Map([...byId.values()].map((price) => [price.id, price.taxCategoryId])) };
}

const USAGE_METERS = `SELECT p.id, p.meter_id AS "meterId", m.status FROM product_prices p JOIN meters m ON m.id = p.meter_id
    WHERE p.id = ANY($1::text[]) AND p.billing_type = 'USAGE'`;
const usageMeters = sqlStatement('product_prices.usage_meters', USAGE_METERS);
const usageMetersLocked = sqlStatement('product_prices.usage_meters_locked', `${USAGE_METERS}
      FOR SHARE OF m`);

/**
 * A USAGE price bills what its meter measures: one whose meter was archived would bill nothing,
 * so it is refused as a price of a meter that is not there (as product-prices/create refuses
 * it). `lock`: the meter is read FOR SHARE, so an archive waits for this change and then finds
 * the line; without it, the early check that gives the refusal its place among the others.
 */
export async function requireActiveMeters(
  db: Transaction | Database,
  requested: readonly { product_price_id: string; field: string }[],
  byId: Map<string, Price>,
  { lock }: { lock: boolean },
): Promise<void> {
  const usage = requested.filter((r) => byId.get(r.product_price_id)?.billingType === 'USAGE');
  if (usage.length === 0) return;
  const statement = lock ? usageMetersLocked : usageMeters;
  const meters = new Map((await readRows<{ id: string; meterId: string; status: string }>(db, statement, [usage.map((r) => r.product_price_id)])).map((row) => [row.id, row]));
  for (const { product_price_id, field } of usage) {
    const meter = meters.get(product_price_id);
    if (meter?.status !== 'ACTIVE') {
      throw new ApiError('METER_NOT_FOUND', `Product price ${product_price_id} bills a meter that is archived.`, { field, product_price_id, meter_id: meter?.meterId ?? null, status: meter?.status ?? null });
    }
  }
}

/** The tax category of each of the account's prices named. */
export async function priceTaxCategories(tx: Transaction, accountId: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  const prices = await findPrices(tx, accountId, ids);
  return new Map([...prices.values()].map((price) => [price.id, price.taxCategoryId]));
}

/**
 * A line's tax as requested, its category defaulting to the price's, as on invoice lines
 * (docs/invoices.md): a line without `tax` is not taxed even if its price has a category.
 */
export function lineTax(requested: LineTaxRequest | undefined, priceTaxCategoryId: string | null | undefined): LineTax | null {
  return requested ? { categoryId: requested.category_id ?? priceTaxCategoryId ?? null, mode: requested.mode, rate: requested.rate } : null;
}

/** New lines of a create or an update's `add`, with fresh `slit_` ids. */
export function newLines(
  resolved: { prices: readonly PriceChange[]; taxCategoryIds: Map<string, string | null> },
  requested: readonly { quantity: number; tax?: LineTaxRequest }[],
  now: number,
): NewLine[] {
  return resolved.prices.map((price, index) => ({
    ...price,
    id: newId('subscriptionLineItem', now),
    quantity: requested[index]!.quantity,
    tax: lineTax(requested[index]!.tax, resolved.taxCategoryIds.get(price.productPriceId)),
  }));
}

/** CUSTOMER_ADDRESS_COUNTRY_REQUIRED (lacksTaxCountry) when `lines` charge tax, named by `field`. */
export function requireTaxCountry(customer: { id: string; tax: unknown; address: unknown }, lines: readonly { tax: LineTax | null }[], field: string): void {
  if (lacksTaxCountry(customer, lines.some((line) => line.tax !== null && line.tax.rate > 0))) {
    throw new ApiError('CUSTOMER_ADDRESS_COUNTRY_REQUIRED', `Customer ${customer.id} is TAXABLE and a line charges tax, but the customer's address has no country.`, {
      field,
      customer_id: customer.id,
    });
  }
}

/**
 * The instrument a subscription charges: the one named, which must be the customer's (422
 * PAYMENT_INSTRUMENT_NOT_FOUND) and ACTIVE (422 PAYMENT_INSTRUMENT_NOT_ACTIVE); else the
 * customer's default when ACTIVE; else 422 PAYMENT_INSTRUMENT_REQUIRED.
 */
export async function subscriptionInstrument(
  tx: Transaction,
  accountId: string,
  customer: { id: string; configuration: unknown },
  requested: string | undefined,
): Promise<string> {
  const id = chargedInstrumentId(requested, customer);
  const verdict = id ? await chargeableInstrument(tx, { accountId, customerId: customer.id, instrumentId: id }) : undefined;
  if (requested && (!verdict || (!verdict.chargeable && verdict.reason === 'NOT_FOUND'))) {
    throw new ApiError('PAYMENT_INSTRUMENT_NOT_FOUND', `Payment instrument ${requested} is not an instrument of this customer.`, {
      field: 'payment_instrument_id',
      payment_instrument_id: requested,
    });
  }
  if (!id || !verdict || (!verdict.chargeable && verdict.reason === 'NOT_FOUND')) {
    throw new ApiError(
      'PAYMENT_INSTRUMENT_REQUIRED',
      'Collection CHARGE_AUTOMATICALLY (asked for, or for a PAID trial) needs a payment instrument and the customer has no default: name a payment_instrument_id, or bill by invoice (collection_method SEND_INVOICE).',
      { field: 'payment_instrument_id', collection_method: 'CHARGE_AUTOMATICALLY' },
    );
  }
  if (!verdict.chargeable) {
    throw new ApiError('PAYMENT_INSTRUMENT_NOT_ACTIVE', `Payment instrument ${id} is ${verdict.status}.`, { field: 'payment_instrument_id', payment_instrument_id: id, status: verdict.status });
  }
  return id;
}

/**
 * How a new subscription collects its invoices and the instrument it keeps (docs/subscriptions.md,
 * "Collection"). Left out, the method is CHARGE_AUTOMATICALLY when there is an instrument to
 * charge (named, or the customer's ACTIVE default) or a PAID trial, else SEND_INVOICE. Automatic
 * collection needs an instrument (subscriptionInstrument); billing by invoice keeps one only if
 * named, checked the same way. A PAID trial is charged when it starts, and a payment term
 * (settings.days_until_due) belongs to invoices that are sent: 400 otherwise.
 */
export async function subscriptionCollection(
  tx: Transaction,
  accountId: string,
  customer: { id: string; configuration: unknown },
  request: { payment_instrument_id?: string; collection_method?: CollectionMethod; trial?: { type: string }; settings?: { days_until_due?: number } },
): Promise<{ collectionMethod: CollectionMethod; paymentInstrumentId: string | null }> {
  const paidTrial = request.trial?.type === 'PAID';
  // Only the default can decide the method. Revoking or expiring an instrument clears it as the
  // default; one that stopped being ACTIVE before that rule is no instrument to charge either.
  const fallback = request.collection_method || request.payment_instrument_id || paidTrial ? undefined : defaultInstrumentOf(customer);
  const defaultVerdict = fallback ? await chargeableInstrument(tx, { accountId, customerId: customer.id, instrumentId: fallback }) : undefined;
  const collectionMethod =
    request.collection_method ?? (request.payment_instrument_id || paidTrial || defaultVerdict?.chargeable ? 'CHARGE_AUTOMATICALLY' : 'SEND_INVOICE');
  if (collectionMethod === 'SEND_INVOICE' && paidTrial) {
    throw ApiError.validation({ collection_method: { type: 'INVALID', message: 'A PAID trial is charged on an instrument when it starts: use CHARGE_AUTOMATICALLY.' } });
  }
  if (collectionMethod === 'CHARGE_AUTOMATICALLY') {
    if (request.settings?.days_until_due !== undefined) {
      throw ApiError.validation({ 'settings.days_until_due': { type: 'INVALID', message: 'Only a subscription billed by invoice (collection_method SEND_INVOICE) has a payment term.' } });
    }
    const paymentInstrumentId = defaultVerdict?.chargeable ? defaultVerdict.instrument.id : await subscriptionInstrument(tx, accountId, customer, request.payment_instrument_id);
    return { collectionMethod, paymentInstrumentId };
  }
  const paymentInstrumentId = request.payment_instrument_id ? await subscriptionInstrument(tx, accountId, customer, request.payment_instrument_id) : null;
  return { collectionMethod, paymentInstrumentId };
}
