import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { computeInvoiceAmounts, MAX_INVOICE_AMOUNT, type InvoiceAmounts } from '../../domain/invoice-amounts';
import { Prisma } from '../../generated/prisma/client';
import { outboxRow, type OutboxRow } from '../../prisma/outbox';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';
import { chargeableInstrument } from '../payment-instruments/chargeable-instrument';
import type { UsageLineDetail } from '../../domain/usage/usage-line';
import type { Scope } from '../scope';
import type { BillingReason } from '../../domain/billing-reasons';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { TaxMode } from '../../domain/invoice-amounts';
import type { DiscountRequest, LineItemRequest } from './invoice-requests';
import { invoiceSelect, serializeInvoice, type InvoiceCustomerRow, type InvoiceObject, type InvoiceRow, type SnapshotSource, type StoredDiscount } from './invoice-object';
import { readVisibleInvoice } from './invoice-read';
import type { Metadata } from '../../domain/metadata';

type Db = Prisma.TransactionClient;

/** A line as the invoice stores it: prices resolved to their amounts. */
export interface DraftLine {
  productPriceId: string | null;
  description: string | null;
  amount: number;
  quantity: number;
  tax: { categoryId: string | null; mode: TaxMode; rate: number } | null;
  /** A subscription's usage line: what it measured and how it was priced (docs/usage.md). */
  usage?: UsageLineDetail | null;
}

/** Everything about a draft the merchant decides (create and update write it). */
export interface DraftState {
  lines: DraftLine[];
  discounts: StoredDiscount[];
  collectionMethod: CollectionMethod;
  paymentInstrumentId: string | null;
  dueAt: Date | null;
  notes: string | null;
  merchantReference: string | null;
  metadata: Metadata | null;
}


/* ---------- resolving what a request names ---------- */

/**
 * Lines from the request: a price gives its amount, currency, product name and tax category;
 * its currency must be the invoice's (422 CURRENCY_MISMATCH), and it must exist in the account
 * (422 PRODUCT_PRICE_NOT_FOUND).
 */
export async function resolveLines(db: Db, accountId: string, currency: string, requested: readonly LineItemRequest[]): Promise<DraftLine[]> {
  const priceIds = [...new Set(requested.flatMap((line) => (line.product_price_id ? [line.product_price_id] : [])))];
  // Lines that name no price need no query (Prisma would still send two).
  const prices =
    priceIds.length === 0
      ? []
      : await db.productPrice.findMany({
          where: { accountId, id: { in: priceIds } },
          select: { id: true, currency: true, amount: true, taxCategoryId: true, billingType: true, product: { select: { name: true } } },
        });
  const byId = new Map(prices.map((price) => [price.id, price]));
  return requested.map((line, index): DraftLine => {
    const tax = line.tax ? { categoryId: line.tax.category_id ?? null, mode: line.tax.mode, rate: line.tax.rate } : null;
    if (!line.product_price_id) {
      return { productPriceId: null, description: line.description!, amount: line.amount!, quantity: line.quantity, tax };
    }
    const price = byId.get(line.product_price_id);
    const field = `line_items[${index}].product_price_id`;
    if (!price) {
      throw new ApiError('PRODUCT_PRICE_NOT_FOUND', `Product price ${line.product_price_id} does not exist.`, {
        field,
        product_price_id: line.product_price_id,
      });
    }
    if (price.billingType === 'USAGE') {
      throw new ApiError('USAGE_PRICE_NOT_INVOICEABLE', `Product price ${price.id} bills usage: a subscription bills it from its meter.`, { field, product_price_id: price.id });
    }
    if (price.currency !== currency) {
      throw new ApiError('CURRENCY_MISMATCH', `Product price ${price.id} is in ${price.currency}, the invoice in ${currency}.`, {
        field,
        product_price_id: price.id,
        price_currency: price.currency,
        currency,
      });
    }
    return {
      productPriceId: price.id,
      description: line.description ?? price.product.name,
      amount: price.amount,
      quantity: line.quantity,
      tax: tax ? { ...tax, categoryId: tax.categoryId ?? price.taxCategoryId } : null,
    };
  });
}

/**
 * Coupons named by id or code, in the order given: 422 COUPON_NOT_FOUND for one the account
 * lacks, 422 COUPON_CURRENCY_MISMATCH for an AMOUNT coupon in another currency, 400 for the
 * same coupon named twice.
 */
export async function resolveDiscounts(db: Db, accountId: string, currency: string, requested: readonly DiscountRequest[]): Promise<StoredDiscount[]> {
  if (requested.length === 0) return [];
  const ids = requested.flatMap((d) => (d.coupon_id ? [d.coupon_id] : []));
  const codes = requested.flatMap((d) => (d.coupon_code ? [d.coupon_code] : []));
  const coupons = await db.coupon.findMany({ where: { accountId, OR: [{ id: { in: ids } }, { code: { in: codes } }] } });
  const seen = new Set<string>();
  return requested.map((discount, index) => {
    const coupon = coupons.find((c) => (discount.coupon_id ? c.id === discount.coupon_id : c.code === discount.coupon_code));
    const named = discount.coupon_id ? { coupon_id: discount.coupon_id } : { coupon_code: discount.coupon_code };
    if (!coupon) {
      throw new ApiError('COUPON_NOT_FOUND', `Coupon ${discount.coupon_id ?? discount.coupon_code} does not exist.`, {
        field: `discounts[${index}]`,
        ...named,
      });
    }
    if (seen.has(coupon.id)) {
      throw ApiError.validation({ [`discounts[${index}]`]: { type: 'INVALID', message: `Coupon ${coupon.id} is named twice.` } });
    }
    seen.add(coupon.id);
    if (coupon.calculationType === 'AMOUNT' && coupon.currency !== currency) {
      throw new ApiError('COUPON_CURRENCY_MISMATCH', `Coupon ${coupon.code} takes off ${coupon.currency}, the invoice is in ${currency}.`, {
        field: `discounts[${index}]`,
        coupon_id: coupon.id,
        coupon_currency: coupon.currency,
        currency,
      });
    }
    return {
      coupon_id: coupon.id,
      coupon_code: coupon.code,
      calculation_type: coupon.calculationType as StoredDiscount['calculation_type'],
      calculation_value: Number(coupon.calculationValue.toString()),
    };
  });
}

/** 422 PAYMENT_INSTRUMENT_NOT_FOUND unless the instrument is one of this customer's. Its status is checked at finalization. */
export async function checkPaymentInstrument(db: Db, accountId: string, customerId: string, instrumentId: string) {
  const verdict = await chargeableInstrument(db, { accountId, customerId, instrumentId });
  if (!verdict.chargeable && verdict.reason === 'NOT_FOUND') {
    throw new ApiError('PAYMENT_INSTRUMENT_NOT_FOUND', `Payment instrument ${instrumentId} is not an instrument of this customer.`, {
      field: 'payment_instrument_id',
      payment_instrument_id: instrumentId,
    });
  }
}

/* ---------- amounts ---------- */

export function amountsOf(state: Pick<DraftState, 'lines' | 'discounts'>): InvoiceAmounts {
  const amounts = computeInvoiceAmounts(
    state.lines.map((line) => ({ unitAmount: line.amount, quantity: line.quantity, tax: line.tax })),
    state.discounts.map((discount) => ({ type: discount.calculation_type, value: discount.calculation_value })),
  );
  if (amounts.amountDetails.subtotal > MAX_INVOICE_AMOUNT || amounts.total > MAX_INVOICE_AMOUNT) {
    throw ApiError.validation({
      line_items: { type: 'MAX', message: `An invoice's subtotal and total are at most ${MAX_INVOICE_AMOUNT} minor units.` },
    });
  }
  return amounts;
}

export function lineRows(invoiceId: string, currency: string, state: DraftState, amounts: InvoiceAmounts, now: Date) {
  return state.lines.map((line, position) => {
    const computed = amounts.lines[position]!;
    return {
      id: newId('invoiceLineItem', now.getTime()),
      invoiceId,
      position,
      productPriceId: line.productPriceId,
      description: line.description,
      amount: line.amount,
      currency,
      quantity: line.quantity,
      taxCategoryId: line.tax?.categoryId ?? null,
      taxMode: line.tax?.mode ?? null,
      taxRate: line.tax ? String(line.tax.rate) : null,
      subtotal: computed.subtotal,
      discount: computed.discount,
      taxable: computed.taxable,
      tax: computed.tax,
      usage: (line.usage ?? null) as Prisma.JsonValue,
      createdAt: now,
    };
  });
}

function json(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

function draftColumns(state: DraftState, amounts: InvoiceAmounts) {
  return {
    totalAmount: amounts.total,
    amountDue: amounts.total,
    amountDetails: amounts.amountDetails as unknown as Prisma.InputJsonValue,
    discounts: state.discounts as unknown as Prisma.InputJsonValue,
    collectionMethod: state.collectionMethod,
    paymentInstrumentId: state.paymentInstrumentId,
    dueAt: state.dueAt,
    notes: state.notes,
    merchantReference: state.merchantReference,
    metadata: json(state.metadata),
  };
}

/* ---------- writing ---------- */

export interface NewInvoice {
  accountId: string;
  customer: SnapshotSource & { channelId: string };
  currency: string;
  billingReason: BillingReason;
  subscriptionId?: string | null;
  state: DraftState;
  now: Date;
  /** Subscriptions name their invoices deterministically, so a retried cycle finds its invoice instead of making another. */
  id?: string;
  /** The amounts of `state` when the caller built them already (a subscription's invoice: buildSubscriptionInvoice). */
  amounts?: InvoiceAmounts;
}

/**
 * Inserts a DRAFT invoice with its lines and records InvoiceCreated, in the caller's
 * transaction. invoices/create calls it with billing reason MANUAL; subscriptions call it with
 * their own reason and subscription id. The invoice lives in its customer's channel.
 */
export async function createInvoiceRecord(tx: Db, invoice: NewInvoice): Promise<{ row: InvoiceRow; object: InvoiceObject }> {
  const amounts = invoice.amounts ?? amountsOf(invoice.state);
  const id = invoice.id ?? newId('invoice', invoice.now.getTime());
  const { state, now } = invoice;
  // The row is known before it is written (no column is left to a database default that shows):
  // the answer and the event are built from it, and one statement inserts all three.
  const columns: Omit<InvoiceRow, 'lineItems'> = {
    id,
    accountId: invoice.accountId,
    channelId: invoice.customer.channelId,
    customerId: invoice.customer.id,
    status: 'DRAFT',
    currency: invoice.currency,
    totalAmount: amounts.total,
    amountDue: amounts.total,
    amountPaid: 0,
    amountDetails: amounts.amountDetails as unknown as Prisma.JsonValue,
    discounts: state.discounts as unknown as Prisma.JsonValue,
    customerSnapshot: null,
    subscriptionId: invoice.subscriptionId ?? null,
    billingReason: invoice.billingReason,
    collectionMethod: state.collectionMethod,
    paymentInstrumentId: state.paymentInstrumentId,
    paymentInProgressId: null,
    dueAt: state.dueAt,
    notes: state.notes,
    merchantReference: state.merchantReference,
    metadata: state.metadata,
    finalizedAt: null,
    paidAt: null,
    voidedAt: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const lines = lineRows(id, invoice.currency, state, amounts, now);
  const row: InvoiceRow = { ...columns, lineItems: lines.map((line) => ({ ...line, taxRate: line.taxRate === null ? null : new Prisma.Decimal(line.taxRate) })) };
  const object = serializeInvoice(row, { now, customer: invoice.customer });
  const event = outboxRow({ accountId: invoice.accountId, channelId: row.channelId, name: 'InvoiceCreated', data: { invoice: object }, occurredAt: now });
  await writeRows(tx, insertInvoice, insertInvoiceValues(columns, lines, event));
  return { row, object };
}

/** The invoice, its lines and its event in one statement (Prisma sends three). */
const insertInvoice = sqlStatement(
  'invoices.insert',
  `WITH invoice AS (
     INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due, amount_paid, amount_details,
                           discounts, subscription_id, billing_reason, collection_method, payment_instrument_id, due_at, notes,
                           merchant_reference, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $16, $17, $18, $19::jsonb, $20, $21)
   ), lines AS (
     INSERT INTO invoice_line_items (id, invoice_id, position, product_price_id, description, amount, currency, quantity, tax_category_id,
                                     tax_mode, tax_rate, subtotal, discount, taxable, tax, usage, created_at)
     SELECT * FROM jsonb_to_recordset($22::jsonb) AS l(id text, "invoiceId" text, position int, "productPriceId" text,
       description text, amount int, currency text, quantity int, "taxCategoryId" text, "taxMode" text, "taxRate" numeric,
       subtotal int, discount int, taxable int, tax int, usage jsonb, "createdAt" timestamptz)
   )
   INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data)
   VALUES ($23, $24, $25, $26, $27, $28::jsonb)`,
);

function insertInvoiceValues(invoice: Omit<InvoiceRow, 'lineItems'>, lines: ReturnType<typeof lineRows>, event: OutboxRow): unknown[] {
  const jsonb = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return [
    invoice.id,
    invoice.accountId,
    invoice.channelId,
    invoice.customerId,
    invoice.status,
    invoice.currency,
    invoice.totalAmount,
    invoice.amountDue,
    invoice.amountPaid,
    jsonb(invoice.amountDetails),
    jsonb(invoice.discounts),
    invoice.subscriptionId,
    invoice.billingReason,
    invoice.collectionMethod,
    invoice.paymentInstrumentId,
    invoice.dueAt,
    invoice.notes,
    invoice.merchantReference,
    jsonb(invoice.metadata),
    invoice.createdAt,
    invoice.updatedAt,
    JSON.stringify(lines),
    event.id,
    event.accountId,
    event.channelId,
    event.eventType,
    event.occurredAt,
    JSON.stringify(event.data),
  ];
}

/** Rewrites a draft. Lines get new rows when `linesReplaced`, else keep their ids and take the new amounts. */
export async function saveDraft(tx: Db, row: InvoiceRow, state: DraftState, linesReplaced: boolean, now: Date): Promise<InvoiceRow> {
  const amounts = amountsOf(state);
  await tx.invoice.update({ where: { id: row.id }, data: { ...draftColumns(state, amounts), updatedAt: now } });
  if (linesReplaced) {
    await tx.invoiceLineItem.deleteMany({ where: { invoiceId: row.id } });
    await tx.invoiceLineItem.createMany({
      data: lineRows(row.id, row.currency, state, amounts, now).map((line) => ({ ...line, usage: line.usage === null ? Prisma.DbNull : (line.usage as Prisma.InputJsonValue) })),
    });
  } else {
    for (const [position, line] of row.lineItems.entries()) {
      const { subtotal, discount, taxable, tax } = amounts.lines[position]!;
      if (line.discount !== discount || line.tax !== tax) {
        await tx.invoiceLineItem.update({ where: { id: line.id }, data: { subtotal, discount, taxable, tax } });
      }
    }
  }
  return tx.invoice.findUniqueOrThrow({ where: { id: row.id }, select: invoiceSelect });
}

export function draftStateOf(row: InvoiceRow): DraftState {
  return {
    lines: row.lineItems.map((line) => ({
      productPriceId: line.productPriceId,
      description: line.description,
      amount: line.amount,
      quantity: line.quantity,
      tax: line.taxMode && line.taxRate ? { categoryId: line.taxCategoryId, mode: line.taxMode as TaxMode, rate: Number(line.taxRate.toString()) } : null,
      usage: line.usage as UsageLineDetail | null,
    })),
    discounts: row.discounts as unknown as StoredDiscount[],
    collectionMethod: row.collectionMethod as CollectionMethod,
    paymentInstrumentId: row.paymentInstrumentId,
    dueAt: row.dueAt,
    notes: row.notes,
    merchantReference: row.merchantReference,
    metadata: row.metadata as Metadata | null,
  };
}

/* ---------- reading ---------- */

/**
 * The invoice as the caller may see it: unknown, deleted, or in a channel the key cannot reach
 * (or other than the `channel_id` named) is 404, as for customers.
 */
export async function visibleInvoice(db: Db, scope: Scope, id: string): Promise<InvoiceRow> {
  return visible(scope, id, await db.invoice.findFirst({ where: { id, accountId: scope.accountId, deletedAt: null }, select: invoiceSelect }));
}

function visible<T extends { channelId: string }>(scope: Scope, id: string, row: T | null | undefined): T {
  if (!row || (scope.channels !== null && !scope.channels.includes(row.channelId))) throw ApiError.notFound('Invoice', id);
  return row;
}

/**
 * Takes the invoice's row lock first, so status changes of one invoice apply one after the other;
 * then reads it in one statement, whose snapshot is taken after the lock: the lines, changed only
 * under that lock, are as the previous holder left them (a single `FOR UPDATE` statement would
 * read them from before its wait).
 */
export async function lockVisibleInvoice(tx: Db, scope: Scope, id: string): Promise<InvoiceRow> {
  return (await lockAndReadVisibleInvoice(tx, scope, id)).row;
}

/** `lockVisibleInvoice`, with the live customer a draft shows (and finalization snapshots). */
const lockRow = sqlStatement('invoices.lock', 'SELECT id FROM invoices WHERE id = $1 AND account_id = $2 FOR UPDATE');

export async function lockAndReadVisibleInvoice(tx: Db, scope: Scope, id: string): Promise<{ row: InvoiceRow; customer: InvoiceCustomerRow | undefined }> {
  await readRows(tx, lockRow, [id, scope.accountId]);
  return readVisibleInvoice(tx, scope, id);
}

/** What a charge claim decides on, read with the invoice's row lock in one statement. */
export interface InvoiceToCharge {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  status: string;
  collectionMethod: string;
  dueAt: Date | null;
  paymentInProgressId: string | null;
  amountDue: number;
  currency: string;
  /** A payment of it waits for the customer's authentication (services/payments/waiting-for-action.ts). */
  awaitingAction: boolean;
}

/** `lockVisibleInvoice` for a charge claim: the lock and the few columns it needs, one round trip. */
export async function lockVisibleInvoiceToCharge(tx: Db, scope: Scope, id: string): Promise<InvoiceToCharge> {
  const [row] = await tx.$queryRaw<InvoiceToCharge[]>`
    SELECT id, account_id AS "accountId", channel_id AS "channelId", customer_id AS "customerId", status,
      collection_method AS "collectionMethod", due_at AS "dueAt", payment_in_progress_id AS "paymentInProgressId",
      amount_due AS "amountDue", currency,
      EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = invoices.id AND p.status = 'REQUIRES_ACTION') AS "awaitingAction"
    FROM invoices WHERE id = ${id} AND account_id = ${scope.accountId} AND deleted_at IS NULL FOR UPDATE`;
  return visible(scope, id, row);
}

/** `customerSnapshotSelect` in one declared statement (test/invoices-lifecycle/read-row.test.ts holds it equal to Prisma's). */
const invoiceCustomer = sqlStatement(
  'invoices.customer',
  `SELECT id, channel_id AS "channelId", first_name AS "firstName", last_name AS "lastName", email, phone, address, tax, configuration
   FROM customers WHERE id = $1`,
);

const invoiceCustomerInAccount = sqlStatement(
  'invoices.customer_in_account',
  `SELECT id, channel_id AS "channelId", first_name AS "firstName", last_name AS "lastName", email, phone, address, tax, configuration
   FROM customers WHERE id = $1 AND account_id = $2`,
);

/** The account's customer `customerId` as an invoice snapshots it; null when the account has none. */
export async function findAccountInvoiceCustomer(db: Db, accountId: string, customerId: string): Promise<InvoiceCustomerRow | null> {
  const [customer] = await readRows<InvoiceCustomerRow>(db, invoiceCustomerInAccount, [customerId, accountId]);
  return customer ?? null;
}

export async function findInvoiceCustomer(db: Db, customerId: string): Promise<InvoiceCustomerRow> {
  const [customer] = await readRows<InvoiceCustomerRow>(db, invoiceCustomer, [customerId]);
  if (!customer) throw new Error(`Customer ${customerId} has no row.`);
  return customer;
}

const invoiceStatus = sqlStatement('invoices.status', 'SELECT status FROM invoices WHERE id = $1');

/** The status of the invoice `id`, or null when there is none (a subscription's cycle finds the invoice it issued). */
export async function findInvoiceStatus(db: Db, id: string): Promise<string | null> {
  const [found] = await readRows<{ status: string }>(db, invoiceStatus, [id]);
  return found?.status ?? null;
}

/** The section 2.3 object of one row, reading the live customer when it is a draft. */
export async function invoiceObjectOf(db: Db, row: InvoiceRow, now: Date): Promise<InvoiceObject> {
  const customer = row.customerSnapshot === null ? await findInvoiceCustomer(db, row.customerId) : undefined;
  return serializeInvoice(row, { now, customer });
}
