import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import Papa from 'papaparse';
import type { ActivityDependencies } from '.';
import { invoicePdfUrl } from '../services/invoices/pdf-url';
import { customerSnapshotOf, type SnapshotSource } from '../services/invoices/invoice-object';
import { escapeFormula } from '../domain/csv-formulae';
import {
  FREE_TEXT_COLUMNS,
  invoiceLineReportCells,
  invoiceReportCells,
  REPORT_COLUMNS,
  subscriptionReportRow,
  type Cell,
  type InvoiceLineReportSource,
  type InvoiceReportSource,
  type ReportType,
  type SubscriptionReportSource,
} from '../domain/report-columns';
import { Prisma } from '../generated/prisma/client';
import { poolOf, type Database } from '../prisma/client';
import { streamedRows } from '../prisma/streamed-rows';
import { fileStorageFromEnv } from '../services/files/storage-from-env';
import type { FileStorage } from '../services/files/storage';

/**
 * Builds a report's CSV (docs/reports.md): the line items of the whole report read by ONE
 * statement whose rows are streamed as PostgreSQL sends them, turned into CSV text batch by
 * batch and written to FileStorage with back-pressure, so memory holds a few batches whatever
 * the report's size.
 */

/** Line items per batch: one CSV chunk and one heartbeat each. Larger batches live long enough to reach V8's old space: 5,000 doubled the export's peak RSS. */
export const REPORT_PAGE_ROWS = 1_000;

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

/**
 * One INVOICES row as PostgreSQL sends it, in the select list's order. The invoice's columns
 * (all but its id) are filled on the invoice's first line only; its JSON columns come as text,
 * parsed once per invoice.
 */
type InvoiceLineRow = [
  id: string,
  status: string,
  currency: string,
  totalAmount: number,
  notes: string | null,
  merchantReference: string | null,
  createdAt: string,
  updatedAt: string,
  dueAt: string | null,
  amountDetails: string,
  discounts: string,
  customerSnapshot: string | null,
  liveCustomerId: string | null,
  liveFirstName: string | null,
  liveLastName: string | null,
  liveEmail: string | null,
  livePhone: string | null,
  liveAddress: string | null,
  liveTax: string | null,
  productPriceId: string | null,
  description: string | null,
  amount: number,
  lineCurrency: string,
  quantity: number,
  subtotal: number,
  discount: number,
  taxable: number,
  tax: number,
  taxCategoryId: string | null,
  taxMode: string | null,
  taxRate: number | null,
];

function invoiceStatement(scope: ReportScope): Prisma.Sql {
  // The LATERAL joins keep the plan a nested loop over the invoices index in creation order:
  // rows leave PostgreSQL from the first invoice on, with no sort of the whole range. The
  // invoice's own columns are formatted and sent with its first line only (the others carry
  // NULL there): they are the same for every line, and most of the work and bytes of a row.
  // Deleted invoices are left out (section 2.8).
  const once = (expression: string | Prisma.Sql) => Prisma.sql`CASE WHEN l.first THEN ${typeof expression === 'string' ? Prisma.raw(expression) : expression} END`;
  return Prisma.sql`
    SELECT i.id, ${once('i.status')}, ${once('i.currency')}, ${once('i.total_amount')}, ${once('i.notes')}, ${once('i.merchant_reference')},
      ${once(iso('i.created_at'))}, ${once(iso('i.updated_at'))}, ${once(iso('i.due_at'))},
      ${once('i.amount_details::text')}, ${once('i.discounts::text')}, ${once('i.customer_snapshot::text')},
      c.id, c.first_name, c.last_name, c.email, c.phone, c.address::text, c.tax::text,
      l.product_price_id, l.description, l.amount, l.currency, l.quantity,
      l.subtotal, l.discount, l.taxable, l.tax, l.tax_category_id, l.tax_mode, l.tax_rate::float8
    FROM invoices i
    CROSS JOIN LATERAL (
      SELECT li.*, li.position = min(li.position) OVER () AS first FROM invoice_line_items li WHERE li.invoice_id = i.id
    ) l
    LEFT JOIN LATERAL (SELECT * FROM customers cu WHERE l.first AND i.customer_snapshot IS NULL AND cu.id = i.customer_id) c ON true
    WHERE i.account_id = ${scope.accountId}
      AND i.deleted_at IS NULL
      AND i.created_at >= ${scope.dateFrom} AND i.created_at < ${scope.dateTo}
      ${channelCondition('i', scope.channelIds)}
    ORDER BY i.created_at, i.id, l.position`;
}

/** One SUBSCRIPTIONS row as PostgreSQL sends it, in the select list's order. */
type SubscriptionLineRow = [
  id: string,
  customerId: string,
  status: string,
  currency: string,
  description: string | null,
  paymentInstrumentId: string | null,
  latestInvoiceId: string | null,
  merchantReference: string | null,
  createdAt: string,
  updatedAt: string,
  startedAt: string | null,
  nextBillingAt: string | null,
  anchorAt: string | null,
  trialInfo: SubscriptionReportSource['trialInfo'],
  cancellationInfo: SubscriptionReportSource['cancellationInfo'],
  discounts: unknown,
  metadata: unknown,
  lineId: string,
  productId: string,
  productPriceId: string,
  billingType: string,
  lineCurrency: string,
  amount: number,
  quantity: number,
  lineStartedAt: string | null,
  periodStartAt: string,
  periodEndAt: string | null,
  billingPeriodValue: number | null,
  billingPeriodUnit: string | null,
  productName: string,
  productDescription: string | null,
  lineCreatedAt: string,
  lineUpdatedAt: string,
];

function subscriptionStatement(scope: ReportScope): Prisma.Sql {
  return Prisma.sql`
    SELECT s.id, s.customer_id, s.status, s.currency, s.description, s.payment_instrument_id, s.latest_invoice_id,
      s.merchant_reference, ${iso('s.created_at')}, ${iso('s.updated_at')},
      ${iso('s.started_at')}, ${iso('s.next_billing_at')}, ${iso('s.anchor_at')},
      s.trial_info, s.cancellation_info, s.discounts, s.metadata,
      l.id, l.product_id, l.product_price_id, l.billing_type, l.currency,
      l.amount, l.quantity, ${iso('l.started_at')}, ${iso('l.period_start_at')},
      ${iso('l.period_end_at')}, l.billing_period_value, l.billing_period_unit,
      l.product_name, l.product_description, ${iso('l.created_at')}, ${iso('l.updated_at')}
    FROM subscriptions s
    CROSS JOIN LATERAL (SELECT * FROM subscription_line_items sl WHERE sl.subscription_id = s.id) l
    WHERE s.account_id = ${scope.accountId}
      AND s.created_at >= ${scope.dateFrom} AND s.created_at < ${scope.dateTo}
      ${channelCondition('s', scope.channelIds)}
    ORDER BY s.created_at, s.id, l.position`;
}

function parsed<T>(json: string | null): T | null {
  return json === null ? null : (JSON.parse(json) as T);
}

function invoiceSource(row: InvoiceLineRow, pdfUrl: string | null): InvoiceReportSource {
  const customer =
    parsed<InvoiceReportSource['customer']>(row[11]) ??
    customerSnapshotOf({
      id: row[12],
      firstName: row[13],
      lastName: row[14],
      email: row[15],
      phone: row[16],
      address: parsed(row[17]),
      tax: parsed(row[18]),
    } as SnapshotSource);
  return {
    id: row[0],
    status: row[1],
    currency: row[2],
    totalAmount: row[3],
    notes: row[4],
    merchantReference: row[5],
    pdfUrl,
    createdAt: row[6],
    updatedAt: row[7],
    dueAt: row[8],
    customer,
    amountDetails: JSON.parse(row[9]),
    discounts: JSON.parse(row[10]),
  };
}

function invoiceLineSource(row: InvoiceLineRow): InvoiceLineReportSource {
  return {
    productPriceId: row[19],
    description: row[20],
    amount: row[21],
    currency: row[22],
    quantity: row[23],
    subtotal: row[24],
    discount: row[25],
    taxable: row[26],
    tax: row[27],
    taxCategoryId: row[28],
    taxMode: row[29],
    taxRate: row[30],
  };
}

function subscriptionSource(row: SubscriptionLineRow): SubscriptionReportSource {
  return {
    id: row[0],
    customerId: row[1],
    status: row[2],
    currency: row[3],
    description: row[4],
    paymentInstrumentId: row[5],
    latestInvoiceId: row[6],
    merchantReference: row[7],
    createdAt: row[8],
    updatedAt: row[9],
    startedAt: row[10],
    nextBillingAt: row[11],
    anchorAt: row[12],
    trialInfo: row[13],
    cancellationInfo: row[14],
    discounts: row[15],
    metadata: row[16],
    line: {
      id: row[17],
      productId: row[18],
      productPriceId: row[19],
      billingType: row[20],
      currency: row[21],
      amount: row[22],
      quantity: row[23],
      startedAt: row[24],
      periodStartAt: row[25],
      periodEndAt: row[26],
      billingPeriodValue: row[27],
      billingPeriodUnit: row[28],
      productName: row[29],
      productDescription: row[30],
      createdAt: row[31],
      updatedAt: row[32],
    },
  };
}

/**
 * INVOICES cells of one row. The lines of an invoice arrive next to each other, so the
 * invoice's own cells (its JSON parsed, its PDF link signed) are made once and shared by them.
 */
function invoiceCells(scope: ReportScope): (row: InvoiceLineRow) => Cell[] {
  const linksFrom = new Date();
  const linkTtlSeconds = Math.max(0, Math.floor((scope.linksValidUntil.getTime() - linksFrom.getTime()) / 1000));
  let invoice: { id: string; cells: Cell[] } = { id: '', cells: [] };
  return (row) => {
    if (invoice.id !== row[0]) {
      const pdfUrl = row[1] === 'DRAFT' ? null : (invoicePdfUrl(row[0], linksFrom, linkTtlSeconds) ?? null);
      invoice = { id: row[0], cells: invoiceReportCells(invoiceSource(row, pdfUrl)) };
    }
    return invoice.cells.concat(invoiceLineReportCells(invoiceLineSource(row)));
  };
}

/**
 * The report's rows as pages of cells, in creation order of their parents, then line position,
 * all from one statement (one snapshot: records committed while the export runs are not in it).
 * PostgreSQL produces the next rows while the caller writes these, and stops when the caller
 * falls two pages behind.
 */
export async function* reportPages(db: Database, scope: ReportScope, pageRows: number = REPORT_PAGE_ROWS): AsyncGenerator<Cell[][]> {
  const statement = scope.reportType === 'INVOICES' ? invoiceStatement(scope) : subscriptionStatement(scope);
  const cellsOf =
    scope.reportType === 'INVOICES'
      ? invoiceCells(scope)
      : (row: SubscriptionLineRow) => subscriptionReportRow(subscriptionSource(row));
  for await (const rows of streamedRows(poolOf(db), statement.text, statement.values, pageRows)) {
    yield (rows as never[]).map(cellsOf);
  }
}

const CSV = { newline: '\r\n' } as const;

/**
 * RFC 4180 text: the header line, then each page's lines, every line ending in CRLF; free-text
 * cells escaped against formula injection.
 *
 * A row is its parent's cells (the invoice or subscription, the columns before the first
 * `line_item_` one) then its line item's. papaparse quotes each cell on its own, so a line is
 * the text of the first part, a comma and the text of the second; the parent's part is made
 * once for a run of rows with the same parent cells (the line items of one invoice) instead of
 * once per row: most of a row's text and of papaparse's work.
 */
export async function* reportCsv(reportType: ReportType, pages: AsyncIterable<Cell[][]>, onPage?: (rows: number) => void): AsyncGenerator<string> {
  const columns = REPORT_COLUMNS[reportType];
  const shared = columns.findIndex((column) => column.startsWith('line_item_'));
  const freeText = FREE_TEXT_COLUMNS[reportType].map((column) => columns.indexOf(column));
  const csvOf = (row: Cell[], from: number, to: number): string => {
    const cells = row.slice(from, to);
    for (const index of freeText) if (index >= from && index < to) cells[index - from] = escapeFormula(cells[index - from] ?? null);
    return Papa.unparse([cells], CSV);
  };
  let parent: Cell[] | undefined;
  let parentCsv = '';
  const sameParent = (row: Cell[]): boolean => {
    if (!parent) return false;
    for (let index = 0; index < shared; index++) if (row[index] !== parent[index]) return false;
    return true;
  };
  yield `${Papa.unparse([columns as string[]], CSV)}\r\n`;
  let rows = 0;
  for await (const page of pages) {
    let text = '';
    for (const row of page) {
      if (!sameParent(row)) {
        parent = row;
        parentCsv = csvOf(row, 0, shared);
      }
      text += `${parentCsv},${csvOf(row, shared, row.length)}\r\n`;
    }
    rows += page.length;
    yield text;
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
