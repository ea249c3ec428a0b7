import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import Papa from 'papaparse';
import type { ActivityDependencies } from '.';
import { invoicePdfUrl } from '../services/invoices/pdf-url';
import { customerSnapshotOf, type SnapshotSource } from '../services/invoices/invoice-object';
import { escapeFormula } from '../domain/csv-formulae';
import {
  FREE_TEXT_COLUMNS,
  invoiceReportRow,
  REPORT_COLUMNS,
  subscriptionReportRow,
  type Cell,
  type InvoiceReportSource,
  type ReportType,
  type SubscriptionReportSource,
} from '../domain/report-columns';
import { Prisma } from '../generated/prisma/client';
import type { Database } from '../prisma/client';
import { fileStorageFromEnv } from './storage/config';
import type { FileStorage } from './storage/file-storage';

/**
 * Builds a report's CSV (docs/reports.md): line items read in keyset pages and written to
 * FileStorage page by page, so memory holds one page whatever the report's size.
 */

/** Line items per database round trip: large enough that round trips do not dominate, small enough to stay a few MiB. */
export const REPORT_PAGE_ROWS = 2_000;

export interface ReportScope {
  reportType: ReportType;
  accountId: string;
  /** Empty: every channel of the account. */
  channelIds: string[];
  dateFrom: Date;
  dateTo: Date;
  /** Until when the invoice pdf_url links in the file stay valid: the report's own expiry. */
  linksValidUntil: Date;
}

export function reportStorageKey(reportId: string): string {
  return `reports/${reportId}/report.csv`;
}

/** Date-times in the API's form, formatted by PostgreSQL so microseconds survive (JavaScript dates keep milliseconds). */
function iso(column: string): Prisma.Sql {
  return Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
}

function channelCondition(alias: string, channelIds: string[]): Prisma.Sql {
  return channelIds.length === 0 ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(alias)}.channel_id = ANY(${channelIds}::text[])`;
}

/** Where the previous page stopped: its last line item, by (created_at, parent id, position). */
interface Cursor {
  createdAt: string;
  id: string;
  position: number;
}

function after(alias: string, lineAlias: string, cursor: Cursor | undefined): Prisma.Sql {
  if (!cursor) return Prisma.empty;
  const [parent, line] = [Prisma.raw(alias), Prisma.raw(lineAlias)];
  // The plain bound lets the (account_id, created_at) index start at the cursor.
  return Prisma.sql`AND ${parent}.created_at >= ${cursor.createdAt}::timestamptz
    AND (${parent}.created_at, ${parent}.id, ${line}.position) > (${cursor.createdAt}::timestamptz, ${cursor.id}, ${cursor.position})`;
}

interface InvoiceLineRow {
  id: string;
  status: string;
  currency: string;
  total_amount: number;
  notes: string | null;
  merchant_reference: string | null;
  created_at: string;
  updated_at: string;
  due_at: string | null;
  amount_details: InvoiceReportSource['amountDetails'];
  discounts: InvoiceReportSource['discounts'];
  customer_snapshot: InvoiceReportSource['customer'] | null;
  live_customer_id: string | null;
  live_first_name: string | null;
  live_last_name: string | null;
  live_email: string | null;
  live_phone: string | null;
  live_address: unknown;
  live_tax: unknown;
  position: number;
  product_price_id: string | null;
  description: string | null;
  amount: number;
  line_currency: string;
  quantity: number;
  subtotal: number;
  discount: number;
  taxable: number;
  tax: number;
  tax_category_id: string | null;
  tax_mode: string | null;
  tax_rate: number | null;
}

async function invoicePage(db: Database, scope: ReportScope, cursor: Cursor | undefined, limit: number): Promise<InvoiceLineRow[]> {
  // LATERAL joins keep the plan a nested loop over the invoices index in creation order, so a
  // page costs its own rows, not the whole range; deleted invoices are left out (section 2.8).
  return db.$queryRaw<InvoiceLineRow[]>`
    SELECT i.id, i.status, i.currency, i.total_amount, i.notes, i.merchant_reference,
      ${iso('i.created_at')} AS created_at, ${iso('i.updated_at')} AS updated_at, ${iso('i.due_at')} AS due_at,
      i.amount_details, i.discounts, i.customer_snapshot,
      c.id AS live_customer_id, c.first_name AS live_first_name, c.last_name AS live_last_name, c.email AS live_email,
      c.phone AS live_phone, c.address AS live_address, c.tax AS live_tax,
      l.position, l.product_price_id, l.description, l.amount, l.currency AS line_currency, l.quantity,
      l.subtotal, l.discount, l.taxable, l.tax, l.tax_category_id, l.tax_mode, l.tax_rate::float8 AS tax_rate
    FROM invoices i
    CROSS JOIN LATERAL (SELECT * FROM invoice_line_items li WHERE li.invoice_id = i.id) l
    LEFT JOIN LATERAL (SELECT * FROM customers cu WHERE i.customer_snapshot IS NULL AND cu.id = i.customer_id) c ON true
    WHERE i.account_id = ${scope.accountId}
      AND i.deleted_at IS NULL
      AND i.created_at >= ${scope.dateFrom} AND i.created_at < ${scope.dateTo}
      ${channelCondition('i', scope.channelIds)}
      ${after('i', 'l', cursor)}
    ORDER BY i.created_at, i.id, l.position
    LIMIT ${limit}`;
}

interface SubscriptionLineRow {
  id: string;
  customer_id: string;
  status: string;
  currency: string;
  description: string | null;
  payment_instrument_id: string | null;
  latest_invoice_id: string | null;
  merchant_reference: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  next_billing_at: string | null;
  anchor_at: string | null;
  trial_info: SubscriptionReportSource['trialInfo'];
  cancellation_info: SubscriptionReportSource['cancellationInfo'];
  discounts: unknown;
  metadata: unknown;
  line_id: string;
  position: number;
  product_id: string;
  product_price_id: string;
  billing_type: string;
  line_currency: string;
  amount: number;
  quantity: number;
  line_started_at: string | null;
  period_start_at: string;
  period_end_at: string | null;
  billing_period_value: number | null;
  billing_period_unit: string | null;
  product_name: string;
  product_description: string | null;
  line_created_at: string;
  line_updated_at: string;
}

async function subscriptionPage(db: Database, scope: ReportScope, cursor: Cursor | undefined, limit: number): Promise<SubscriptionLineRow[]> {
  return db.$queryRaw<SubscriptionLineRow[]>`
    SELECT s.id, s.customer_id, s.status, s.currency, s.description, s.payment_instrument_id, s.latest_invoice_id,
      s.merchant_reference, ${iso('s.created_at')} AS created_at, ${iso('s.updated_at')} AS updated_at,
      ${iso('s.started_at')} AS started_at, ${iso('s.next_billing_at')} AS next_billing_at, ${iso('s.anchor_at')} AS anchor_at,
      s.trial_info, s.cancellation_info, s.discounts, s.metadata,
      l.id AS line_id, l.position, l.product_id, l.product_price_id, l.billing_type, l.currency AS line_currency,
      l.amount, l.quantity, ${iso('l.started_at')} AS line_started_at, ${iso('l.period_start_at')} AS period_start_at,
      ${iso('l.period_end_at')} AS period_end_at, l.billing_period_value, l.billing_period_unit,
      l.product_name, l.product_description, ${iso('l.created_at')} AS line_created_at, ${iso('l.updated_at')} AS line_updated_at
    FROM subscriptions s
    CROSS JOIN LATERAL (SELECT * FROM subscription_line_items sl WHERE sl.subscription_id = s.id) l
    WHERE s.account_id = ${scope.accountId}
      AND s.created_at >= ${scope.dateFrom} AND s.created_at < ${scope.dateTo}
      ${channelCondition('s', scope.channelIds)}
      ${after('s', 'l', cursor)}
    ORDER BY s.created_at, s.id, l.position
    LIMIT ${limit}`;
}

function invoiceSource(row: InvoiceLineRow, pdfUrl: string | null): InvoiceReportSource {
  const customer =
    row.customer_snapshot ??
    customerSnapshotOf({
      id: row.live_customer_id,
      firstName: row.live_first_name,
      lastName: row.live_last_name,
      email: row.live_email,
      phone: row.live_phone,
      address: row.live_address,
      tax: row.live_tax,
    } as SnapshotSource);
  return {
    id: row.id,
    status: row.status,
    currency: row.currency,
    totalAmount: row.total_amount,
    notes: row.notes,
    merchantReference: row.merchant_reference,
    pdfUrl,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    dueAt: row.due_at,
    customer,
    amountDetails: row.amount_details,
    discounts: row.discounts,
    line: {
      productPriceId: row.product_price_id,
      description: row.description,
      amount: row.amount,
      currency: row.line_currency,
      quantity: row.quantity,
      subtotal: row.subtotal,
      discount: row.discount,
      taxable: row.taxable,
      tax: row.tax,
      taxCategoryId: row.tax_category_id,
      taxMode: row.tax_mode,
      taxRate: row.tax_rate,
    },
  };
}

function subscriptionSource(row: SubscriptionLineRow): SubscriptionReportSource {
  return {
    id: row.id,
    customerId: row.customer_id,
    status: row.status,
    currency: row.currency,
    description: row.description,
    paymentInstrumentId: row.payment_instrument_id,
    latestInvoiceId: row.latest_invoice_id,
    merchantReference: row.merchant_reference,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    nextBillingAt: row.next_billing_at,
    anchorAt: row.anchor_at,
    trialInfo: row.trial_info,
    cancellationInfo: row.cancellation_info,
    discounts: row.discounts,
    metadata: row.metadata,
    line: {
      id: row.line_id,
      productId: row.product_id,
      productPriceId: row.product_price_id,
      billingType: row.billing_type,
      currency: row.line_currency,
      amount: row.amount,
      quantity: row.quantity,
      startedAt: row.line_started_at,
      periodStartAt: row.period_start_at,
      periodEndAt: row.period_end_at,
      billingPeriodValue: row.billing_period_value,
      billingPeriodUnit: row.billing_period_unit,
      productName: row.product_name,
      productDescription: row.product_description,
      createdAt: row.line_created_at,
      updatedAt: row.line_updated_at,
    },
  };
}

/**
 * The report's rows as pages of cells, in creation order of their parents, then line position.
 * The next page is read while the caller writes this one, so PostgreSQL and this process work
 * at the same time; memory holds two pages at most.
 */
export async function* reportPages(db: Database, scope: ReportScope, pageRows: number = REPORT_PAGE_ROWS): AsyncGenerator<Cell[][]> {
  const linksFrom = new Date();
  const linkTtlSeconds = Math.max(0, Math.floor((scope.linksValidUntil.getTime() - linksFrom.getTime()) / 1000));
  // One link per invoice, not per line: the lines of an invoice sit next to each other.
  let linked: { id: string; url: string | null } = { id: '', url: null };
  const pdfUrl = (row: InvoiceLineRow) => {
    if (linked.id !== row.id) linked = { id: row.id, url: row.status === 'DRAFT' ? null : (invoicePdfUrl(row.id, linksFrom, linkTtlSeconds) ?? null) };
    return linked.url;
  };
  const page = async (cursor: Cursor | undefined): Promise<{ rows: Array<InvoiceLineRow | SubscriptionLineRow>; next: Cursor | undefined }> => {
    const rows = scope.reportType === 'INVOICES' ? await invoicePage(db, scope, cursor, pageRows) : await subscriptionPage(db, scope, cursor, pageRows);
    const last = rows[rows.length - 1];
    return { rows, next: last && rows.length === pageRows ? { createdAt: last.created_at, id: last.id, position: last.position } : undefined };
  };
  const cellsOf = (rows: Array<InvoiceLineRow | SubscriptionLineRow>): Cell[][] =>
    scope.reportType === 'INVOICES'
      ? (rows as InvoiceLineRow[]).map((row) => invoiceReportRow(invoiceSource(row, pdfUrl(row))))
      : (rows as SubscriptionLineRow[]).map((row) => subscriptionReportRow(subscriptionSource(row)));

  let pending = page(undefined);
  for (;;) {
    const { rows, next } = await pending;
    if (next) {
      pending = page(next);
      // Awaited on the next turn; if the consumer stops first, its failure must not go unhandled.
      pending.catch(() => undefined);
    }
    if (rows.length > 0) yield cellsOf(rows);
    if (!next) return;
  }
}

const CSV = { newline: '\r\n' } as const;

/**
 * RFC 4180 text: the header line, then each page's lines, every line ending in CRLF; free-text
 * cells escaped against formula injection.
 */
export async function* reportCsv(reportType: ReportType, pages: AsyncIterable<Cell[][]>, onPage?: (rows: number) => void): AsyncGenerator<string> {
  const columns = REPORT_COLUMNS[reportType];
  const freeText = FREE_TEXT_COLUMNS[reportType].map((column) => columns.indexOf(column));
  // A row is copied only when one of its cells changes: most rows have nothing to escape.
  const escaped = (row: Cell[]): Cell[] => {
    let copy: Cell[] | undefined;
    for (const index of freeText) {
      const cell = escapeFormula(row[index] ?? null);
      if (cell !== row[index]) (copy ??= [...row])[index] = cell;
    }
    return copy ?? row;
  };
  yield `${Papa.unparse([columns as string[]], CSV)}\r\n`;
  let rows = 0;
  for await (const page of pages) {
    rows += page.length;
    yield `${Papa.unparse(page.map(escaped), CSV)}\r\n`;
    onPage?.(rows);
  }
}

export interface ExportedFile {
  storageKey: string;
  rowCount: number;
  byteSize: number;
}

/** The whole export of one report into storage; the activity adds heartbeats, the benchmark calls it directly. */
export async function writeReportFile(
  db: Database,
  storage: FileStorage,
  storageKey: string,
  scope: ReportScope,
  onPage?: (rows: number) => void,
): Promise<ExportedFile> {
  let rowCount = 0;
  const { bytes } = await storage.write(
    storageKey,
    reportCsv(scope.reportType, reportPages(db, scope), (rows) => {
      rowCount = rows;
      onPage?.(rows);
    }),
  );
  return { storageKey, rowCount, byteSize: bytes };
}

export interface ReportActivityInput {
  reportId: string;
}

export type ExportOutcome = { found: false } | ({ found: true; status: string } & Partial<ExportedFile>);

export function createReportExportActivities(deps: ActivityDependencies & { storage?: FileStorage }) {
  const { db } = deps;
  const storage = () => deps.storage ?? fileStorageFromEnv();

  return {
    /**
     * Writes the report's file and marks it SUCCEEDED. A retry rewrites the file whole (the
     * storage replaces it atomically). A report not yet visible may be one whose creating
     * transaction has not committed: retried, and the workflow gives up after its attempts.
     */
    async exportReport({ reportId }: ReportActivityInput): Promise<ExportOutcome> {
      const report = await db.report.findUnique({ where: { id: reportId } });
      if (!report) throw ApplicationFailure.retryable(`Report ${reportId} does not exist (yet).`, 'REPORT_NOT_FOUND');
      if (report.status !== 'PROCESSING') return { found: true, status: report.status };
      const context = Context.current();
      const file = await writeReportFile(
        db,
        storage(),
        reportStorageKey(reportId),
        {
          reportType: report.reportType as ReportType,
          accountId: report.accountId,
          channelIds: report.channelIds,
          dateFrom: report.dateFrom,
          dateTo: report.dateTo,
          linksValidUntil: report.expiresAt,
        },
        (rows) => {
          // Stop between pages when Temporal cancels the attempt (a missed heartbeat, a cancelled workflow).
          if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? new Error('Cancelled');
          context.heartbeat({ rows });
        },
      );
      const done = await db.report.updateMany({
        where: { id: reportId, status: 'PROCESSING' },
        data: { status: 'SUCCEEDED', storageKey: file.storageKey, rowCount: file.rowCount, byteSize: BigInt(file.byteSize), updatedAt: new Date() },
      });
      if (done.count === 0) return { found: true, status: (await db.report.findUnique({ where: { id: reportId } }))?.status ?? 'MISSING' };
      return { found: true, status: 'SUCCEEDED', ...file };
    },

    /** After the export's last attempt failed. False when the report never committed. */
    async failReport({ reportId, reason }: ReportActivityInput & { reason: string }): Promise<{ found: boolean }> {
      const report = await db.report.findUnique({ where: { id: reportId }, select: { id: true } });
      if (!report) return { found: false };
      await db.report.updateMany({
        where: { id: reportId, status: 'PROCESSING' },
        data: { status: 'FAILED', failureReason: reason, updatedAt: new Date() },
      });
      return { found: true };
    },

    /** Thirty days after creation: the file goes, the record stays as EXPIRED. Safe to repeat. */
    async expireReport({ reportId }: ReportActivityInput): Promise<{ status: string }> {
      const report = await db.report.findUnique({ where: { id: reportId } });
      if (!report) return { status: 'MISSING' };
      if (report.storageKey) await storage().remove(report.storageKey);
      await db.report.update({ where: { id: reportId }, data: { status: 'EXPIRED', storageKey: null, updatedAt: new Date() } });
      return { status: 'EXPIRED' };
    },
  };
}
