import { isDeepStrictEqual } from 'node:util';
import { formatDateTime } from '../../domain/datetime';
import type { EventName } from '../../domain/event-catalogue';
import type { BillingPeriod } from '../../domain/billing-periods';
import type { CollectionMethod } from '../../domain/collection-methods';
import { servedNextBillingAt } from '../../domain/subscriptions/schedule';
import { type Line, type LineTax, type SubscriptionState } from '../../domain/subscriptions/state';
import type { SubscriptionStatus } from '../../domain/subscription-status';
import { statusChangeCause } from '../../domain/subscriptions/status-change-cause';
import { newId } from '../../domain/ids';
import { subscriptionMonthlyAmount } from '../../domain/metrics/subscription-monthly-amount';
import { Prisma } from '../../generated/prisma/client';
import { outboxRow } from '../../prisma/outbox';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';
import { serializeSubscription, type CancellationInfoJson, type TrialInfoJson } from './subscription-object';
import type { SubscriptionRow } from './subscription-row';
import { readSubscriptionRow } from './subscription-read';
import type { Metadata } from '../../domain/metadata';

type Db = Prisma.TransactionClient;

const ms = (value: Date | null) => (value ? value.getTime() : null);
const date = (value: number | null) => (value === null ? null : new Date(value));
const iso = (value: number) => formatDateTime(new Date(value));

function json(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

/** The workflow's state from the read model: how a run (new, or after restore) begins. */
export function stateOfRow(row: SubscriptionRow): SubscriptionState {
  const trial = row.trialInfo as TrialInfoJson | null;
  const cancellation = row.cancellationInfo as CancellationInfoJson | null;
  return {
    id: row.id,
    accountId: row.accountId,
    channelId: row.channelId,
    customerId: row.customerId,
    currency: row.currency,
    status: row.status as SubscriptionStatus,
    paymentInstrumentId: row.paymentInstrumentId,
    collectionMethod: row.collectionMethod as CollectionMethod,
    latestInvoiceId: row.latestInvoiceId,
    description: row.description,
    merchantReference: row.merchantReference,
    metadata: row.metadata as Metadata | null,
    discounts: row.discounts as unknown as SubscriptionState['discounts'],
    trial: trial
      ? {
          type: trial.type,
          amount: trial.amount,
          startAt: Date.parse(trial.period.start_at),
          endAt: trial.period.end_at ? Date.parse(trial.period.end_at) : null,
          periodConfig: trial.period_config ?? null,
        }
      : null,
    cancellation: cancellation
      ? {
          mode: cancellation.mode,
          cancelAt: Date.parse(cancellation.cancel_at),
          requestedAt: Date.parse(cancellation.requested_at),
          reason: cancellation.reason,
          comment: cancellation.comment ?? null,
          ...(cancellation.requested_by ? { requestedBy: cancellation.requested_by } : {}),
        }
      : null,
    settings: row.settings as unknown as SubscriptionState['settings'],
    startScheduledAt: ms(row.startScheduledAt),
    startedAt: ms(row.startedAt),
    anchorAt: ms(row.anchorAt),
    endsAt: ms(row.endsAt),
    nextCycleAt: ms(row.nextBillingAt),
    cycleCount: row.cycleCount,
    version: row.version,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    lineItems: row.lineItems.map(
      (line): Line => ({
        id: line.id,
        productId: line.productId,
        productPriceId: line.productPriceId,
        productName: line.productName,
        productDescription: line.productDescription,
        billingType: line.billingType as Line['billingType'],
        amount: line.amount,
        quantity: line.quantity,
        billingPeriod: line.billingPeriodValue !== null ? { value: line.billingPeriodValue, unit: line.billingPeriodUnit as BillingPeriod['unit'] } : null,
        tax: line.taxMode !== null && line.taxRate !== null ? { categoryId: line.taxCategoryId, mode: line.taxMode as LineTax['mode'], rate: Number(line.taxRate.toString()) } : null,
        startedAt: ms(line.startedAt),
        periodStartAt: line.periodStartAt.getTime(),
        periodEndAt: ms(line.periodEndAt),
        billedAt: ms(line.billedAt),
        createdAt: line.createdAt.getTime(),
        updatedAt: line.updatedAt.getTime(),
      }),
    ),
  };
}

function trialJson(state: SubscriptionState): TrialInfoJson | null {
  const trial = state.trial;
  if (!trial) return null;
  return {
    type: trial.type,
    period: { start_at: iso(trial.startAt), ...(trial.endAt !== null ? { end_at: iso(trial.endAt) } : {}) },
    amount: trial.amount,
    ...(trial.periodConfig ? { period_config: trial.periodConfig } : {}),
  };
}

function cancellationJson(state: SubscriptionState): CancellationInfoJson | null {
  const c = state.cancellation;
  if (!c) return null;
  return {
    cancel_at: iso(c.cancelAt),
    requested_at: iso(c.requestedAt),
    reason: c.reason,
    ...(c.comment ? { comment: c.comment } : {}),
    mode: c.mode,
    ...(c.requestedBy ? { requested_by: c.requestedBy } : {}),
  };
}

function rowColumns(state: SubscriptionState) {
  return {
    status: state.status,
    paymentInstrumentId: state.paymentInstrumentId,
    latestInvoiceId: state.latestInvoiceId,
    description: state.description,
    merchantReference: state.merchantReference,
    metadata: json(state.metadata),
    discounts: state.discounts as unknown as Prisma.InputJsonValue,
    trialInfo: json(trialJson(state)),
    cancellationInfo: json(cancellationJson(state)),
    settings: state.settings as unknown as Prisma.InputJsonValue,
    startScheduledAt: date(state.startScheduledAt),
    startedAt: date(state.startedAt),
    nextBillingAt: date(servedNextBillingAt(state)),
    anchorAt: date(state.anchorAt),
    endsAt: date(state.endsAt),
    cycleCount: state.cycleCount,
    version: state.version,
    updatedAt: new Date(state.updatedAt),
  };
}

function lineColumns(state: SubscriptionState, line: Line, position: number) {
  return {
    subscriptionId: state.id,
    position,
    productId: line.productId,
    productPriceId: line.productPriceId,
    productName: line.productName,
    productDescription: line.productDescription,
    billingType: line.billingType,
    currency: state.currency,
    amount: line.amount,
    quantity: line.quantity,
    startedAt: date(line.startedAt),
    periodStartAt: new Date(line.periodStartAt),
    periodEndAt: date(line.periodEndAt),
    billingPeriodValue: line.billingPeriod?.value ?? null,
    billingPeriodUnit: line.billingPeriod?.unit ?? null,
    taxCategoryId: line.tax?.categoryId ?? null,
    taxMode: line.tax?.mode ?? null,
    taxRate: line.tax ? String(line.tax.rate) : null,
    billedAt: date(line.billedAt),
    createdAt: new Date(line.createdAt),
    updatedAt: new Date(line.updatedAt),
  };
}

const jsonText = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** `saveRow`'s $1–$19; `insertRow` takes the same from $8 on, in the same order. */
function updateValues(state: SubscriptionState): unknown[] {
  const c = rowColumns(state);
  return [
    state.id,
    c.status,
    c.paymentInstrumentId,
    c.latestInvoiceId,
    c.description,
    c.merchantReference,
    jsonText(state.metadata),
    jsonText(state.discounts),
    jsonText(trialJson(state)),
    jsonText(cancellationJson(state)),
    jsonText(state.settings),
    c.startScheduledAt,
    c.startedAt,
    c.nextBillingAt,
    c.anchorAt,
    c.endsAt,
    c.cycleCount,
    c.version,
    c.updatedAt,
  ];
}

/**
 * Inserts a new subscription (subscriptions/create): its row, lines, first status and `events`
 * in one statement, built from `state` in memory (Prisma sent four, and a read back). The row is
 * returned as readSubscriptionRow would read it (test/subscriptions/insert-row.test.ts). The
 * collection method never changes afterwards.
 */
export async function insertSubscription(tx: Db, state: SubscriptionState, events: readonly EventName[]): Promise<SubscriptionRow> {
  const row = newRow(state);
  const subscription = serializeSubscription(row);
  const occurredAt = new Date(state.updatedAt);
  const outbox = events.map((name) => outboxRow({ accountId: row.accountId, channelId: row.channelId, name, data: { subscription }, occurredAt }));
  const { lineItems, ...columns } = row;
  await writeRows(tx, insertRow, [
    columns.id,
    columns.accountId,
    columns.channelId,
    columns.customerId,
    columns.currency,
    columns.collectionMethod,
    columns.createdAt,
    ...updateValues(state).slice(1),
    JSON.stringify(lineItems.map((line) => ({ ...line, taxRate: line.taxRate?.toString() ?? null }))),
    newId('subscriptionStatusChange', state.updatedAt),
    statusChangeCause(null, state),
    JSON.stringify(outbox),
    subscriptionMonthlyAmount(state),
  ]);
  return row;
}

/** The row and lines `state` is stored as, as readSubscriptionRow reads them back. */
function newRow(state: SubscriptionState): SubscriptionRow {
  const c = rowColumns(state);
  return {
    id: state.id,
    accountId: state.accountId,
    channelId: state.channelId,
    customerId: state.customerId,
    status: c.status,
    currency: state.currency,
    paymentInstrumentId: c.paymentInstrumentId,
    collectionMethod: state.collectionMethod ?? 'CHARGE_AUTOMATICALLY',
    latestInvoiceId: c.latestInvoiceId,
    description: c.description,
    merchantReference: c.merchantReference,
    metadata: state.metadata,
    discounts: state.discounts as unknown as Prisma.JsonValue,
    trialInfo: trialJson(state) as unknown as Prisma.JsonValue,
    cancellationInfo: cancellationJson(state) as unknown as Prisma.JsonValue,
    settings: state.settings as unknown as Prisma.JsonValue,
    startScheduledAt: c.startScheduledAt,
    startedAt: c.startedAt,
    nextBillingAt: c.nextBillingAt,
    anchorAt: c.anchorAt,
    endsAt: c.endsAt,
    cycleCount: c.cycleCount,
    version: c.version,
    createdAt: new Date(state.createdAt),
    updatedAt: c.updatedAt,
    lineItems: state.lineItems.map((line, position) => {
      const columns = lineColumns(state, line, position);
      return { id: line.id, ...columns, taxRate: columns.taxRate === null ? null : new Prisma.Decimal(columns.taxRate) };
    }),
  };
}

/**
 * The row, its lines, its first status and its events. $8–$25 are `updateValues` without the id,
 * in `saveRow`'s order: the two statements change together. $30 is its monthly amount
 * (docs/metrics.md), kept on the row so MRR is a sum; created ACTIVE, it first became ACTIVE now.
 */
const insertRow = sqlStatement(
  'subscriptions.insert',
  `WITH subscription AS (
     INSERT INTO subscriptions (id, account_id, channel_id, customer_id, currency, collection_method, created_at, status, payment_instrument_id,
                                latest_invoice_id, description, merchant_reference, metadata, discounts, trial_info, cancellation_info, settings,
                                start_scheduled_at, started_at, next_billing_at, anchor_at, ends_at, cycle_count, version, updated_at, monthly_amount,
                                first_active_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, $17::jsonb,
             $18, $19, $20, $21, $22, $23, $24, $25, $30::numeric, CASE WHEN $8 = 'ACTIVE' THEN $25::timestamptz END)
   ), lines AS (
     INSERT INTO subscription_line_items (id, subscription_id, position, product_id, product_price_id, product_name, product_description,
                                          billing_type, currency, amount, quantity, started_at, period_start_at, period_end_at,
                                          billing_period_value, billing_period_unit, tax_category_id, tax_mode, tax_rate, billed_at, created_at, updated_at)
     SELECT * FROM jsonb_to_recordset($26::jsonb) AS l(id text, "subscriptionId" text, position int, "productId" text, "productPriceId" text,
       "productName" text, "productDescription" text, "billingType" text, currency text, amount int, quantity int, "startedAt" timestamptz,
       "periodStartAt" timestamptz, "periodEndAt" timestamptz, "billingPeriodValue" int, "billingPeriodUnit" text, "taxCategoryId" text,
       "taxMode" text, "taxRate" numeric, "billedAt" timestamptz, "createdAt" timestamptz, "updatedAt" timestamptz)
   ), status AS (
     INSERT INTO subscription_status_changes (id, account_id, subscription_id, from_status, to_status, cause, version, occurred_at)
     VALUES ($27, $2, $1, NULL, $8, $28, $24, $25)
   )
   INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data)
   SELECT * FROM jsonb_to_recordset($29::jsonb) AS e(id text, "accountId" text, "channelId" text, "eventType" text, "occurredAt" timestamptz, data jsonb)`,
);

/**
 * Serializes the transaction that writes a subscription and starts its workflow run (create,
 * restore) with that run's first read: the workflow is started before the commit, so its read
 * waits here until the commit or rollback instead of mistaking a pending write for none.
 */
export async function lockSubscriptionStart(tx: Db, id: string): Promise<void> {
  await readRows(tx, startLock, ['subscription-start/' + id]);
}

const startLock = sqlStatement('subscriptions.start_lock', 'SELECT true AS locked FROM pg_advisory_xact_lock(hashtext($1))');

const lockRow = sqlStatement('subscriptions.lock_version', 'SELECT version FROM subscriptions WHERE id = $1 FOR UPDATE');

/**
 * Locks the row and returns it with its lines. `known` is the row as this process last wrote it
 * (writeSubscription's answer): while the row still holds that version it is the stored one, since
 * every write of a row or its lines is writeSubscription's and raises the version, so it is not
 * read again.
 */
export async function lockSubscription(tx: Db, id: string, known?: SubscriptionRow): Promise<SubscriptionRow | null> {
  const [locked] = await readRows<{ version: number }>(tx, lockRow, [id]);
  if (!locked) return null;
  if (known && known.id === id && known.version === locked.version) return known;
  // Read after the lock, not with it: a FOR UPDATE that waited would see the lines from before its wait.
  return readSubscriptionRow(tx, id);
}

/**
 * Writes `state` over the row and its lines, with its events, unless the row already holds this
 * version or a later one: a retried activity, or a write overtaken by a newer one, changes
 * nothing and records no event twice. Call under lockSubscription.
 *
 * The one place a stored subscription's status is written: when the status moves, the move is
 * appended to its status history in the same statement, so neither is ever stored without the
 * other (docs/subscriptions.md, "Status history"); a new row's first status goes in with it
 * (insertSubscription).
 */
export async function writeSubscription(tx: Db, stored: SubscriptionRow, state: SubscriptionState, events: readonly EventName[]): Promise<SubscriptionRow> {
  if (stored.version >= state.version) return stored;
  // What is written, known without reading it back: the columns a state never changes are the stored ones.
  const { id, accountId, channelId, customerId, currency, collectionMethod, createdAt } = stored;
  const row = { ...newRow(state), id, accountId, channelId, customerId, currency, collectionMethod, createdAt };
  const from = stored.status as SubscriptionStatus;
  const lines = changedLines(stored, state);
  const subscription = serializeSubscription(row);
  const occurredAt = new Date(state.updatedAt);
  const outbox = events.map((name) => outboxRow({ accountId, channelId, name, data: { subscription }, occurredAt }));
  const moved = from !== state.status;
  await writeRows(tx, saveRow, [
    ...updateValues(state),
    JSON.stringify(lines ?? []),
    moved ? newId('subscriptionStatusChange', state.updatedAt) : null,
    moved ? from : null,
    moved ? statusChangeCause(from, state) : null,
    JSON.stringify(outbox),
    subscriptionMonthlyAmount(state),
    accountId,
  ]);
  if (!lines) await rewriteLines(tx, state);
  return row;
}

/**
 * The lines whose columns differ from the stored ones, each with every column `lineColumns`
 * gives (as Prisma's update did), when `state` keeps the same lines in the same order, as most
 * changes do (a renewal's new period, a payment, metadata); null when a line was added, removed
 * or moved.
 */
function changedLines(stored: SubscriptionRow, state: SubscriptionState): Array<{ id: string } & ReturnType<typeof lineColumns>> | null {
  const before = stateOfRow(stored);
  const sameLines = before.lineItems.length === state.lineItems.length && before.lineItems.every((line, position) => line.id === state.lineItems[position]!.id);
  if (!sameLines) return null;
  return state.lineItems
    .map((line, position) => ({ id: line.id, ...lineColumns(state, line, position) }))
    .filter(({ id, ...columns }, position) => !isDeepStrictEqual(columns, lineColumns(before, before.lineItems[position]!, position)));
}

/** Every line of `state` written again, after a line was added, removed or moved. */
async function rewriteLines(tx: Db, state: SubscriptionState): Promise<void> {
  const keep = state.lineItems.map((line) => line.id);
  await tx.subscriptionLineItem.deleteMany({ where: { subscriptionId: state.id, id: { notIn: keep } } });
  // Positions are unique: park the survivors out of the way before renumbering.
  await tx.subscriptionLineItem.updateMany({ where: { subscriptionId: state.id }, data: { position: { increment: 10_000 } } });
  for (const [position, line] of state.lineItems.entries()) {
    const columns = lineColumns(state, line, position);
    await tx.subscriptionLineItem.upsert({ where: { id: line.id }, create: { id: line.id, ...columns }, update: columns });
  }
}

/**
 * A saved step in one statement: `rowColumns` over the row ($1–$19, `updateValues`), the changed
 * lines ($20), the status move when there is one ($21–$23, all null otherwise) and the events
 * ($24, recordEvent's rows), the monthly amount ($25, docs/metrics.md) and the account ($26, its status change's). Every step of a workflow writes it: the update, lines and events as
 * statements of their own cost a renewal two round trips more, and Prisma's `update` the worker
 * about 0.4 ms of CPU more (issue 13). test/subscriptions/line-writes.test.ts holds the row it
 * leaves equal to the one Prisma's update leaves. A data-modifying WITH runs whether or not the
 * outer query reads it.
 */
const saveRow = sqlStatement(
  'subscriptions.save',
  `WITH saved AS (
     UPDATE subscriptions SET status = $2, payment_instrument_id = $3, latest_invoice_id = $4, description = $5, merchant_reference = $6,
       metadata = $7::jsonb, discounts = $8::jsonb, trial_info = $9::jsonb, cancellation_info = $10::jsonb, settings = $11::jsonb,
       start_scheduled_at = $12, started_at = $13, next_billing_at = $14, anchor_at = $15, ends_at = $16, cycle_count = $17,
       version = $18, updated_at = $19, monthly_amount = $25::numeric,
       first_active_at = COALESCE(first_active_at, CASE WHEN $22::text IS NOT NULL AND $2 = 'ACTIVE' THEN $19::timestamptz END)
     WHERE id = $1
   ), lines AS (
     UPDATE subscription_line_items AS l SET subscription_id = v."subscriptionId", position = v.position, product_id = v."productId",
       product_price_id = v."productPriceId", product_name = v."productName", product_description = v."productDescription",
       billing_type = v."billingType", currency = v.currency, amount = v.amount, quantity = v.quantity, started_at = v."startedAt",
       period_start_at = v."periodStartAt", period_end_at = v."periodEndAt", billing_period_value = v."billingPeriodValue",
       billing_period_unit = v."billingPeriodUnit", tax_category_id = v."taxCategoryId", tax_mode = v."taxMode", tax_rate = v."taxRate",
       billed_at = v."billedAt", created_at = v."createdAt", updated_at = v."updatedAt"
     FROM jsonb_to_recordset($20::jsonb) AS v(id text, "subscriptionId" text, position int, "productId" text, "productPriceId" text,
       "productName" text, "productDescription" text, "billingType" text, currency text, amount int, quantity int, "startedAt" timestamptz,
       "periodStartAt" timestamptz, "periodEndAt" timestamptz, "billingPeriodValue" int, "billingPeriodUnit" text, "taxCategoryId" text,
       "taxMode" text, "taxRate" numeric, "billedAt" timestamptz, "createdAt" timestamptz, "updatedAt" timestamptz)
     WHERE l.id = v.id
   ), status AS (
     INSERT INTO subscription_status_changes (id, account_id, subscription_id, from_status, to_status, cause, version, occurred_at)
     SELECT $21::text, $26::text, $1, $22::text, $2, $23::text, $18, $19 WHERE $22::text IS NOT NULL
   )
   INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data)
   SELECT * FROM jsonb_to_recordset($24::jsonb) AS e(id text, "accountId" text, "channelId" text, "eventType" text, "occurredAt" timestamptz, data jsonb)`,
);
