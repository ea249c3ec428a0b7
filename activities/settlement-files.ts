import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import { formatDateTime } from '../domain/datetime';
import { netOf, type SettlementParts } from '../domain/settlement-lines';
import type { BookLine } from './settlement-books';

/** CSV with a header row, written in batches as the lines arrive (docs/settlements.md, "Files"). */
export async function* csvChunks<Row extends Record<string, string | number>>(
  columns: readonly (keyof Row & string)[],
  rows: AsyncIterable<Row>,
  batchSize = 500,
): AsyncGenerator<string> {
  const fields = [...columns];
  yield `${Papa.unparse({ fields, data: [] })}\r\n`;
  let batch: Row[] = [];
  const flush = () => `${Papa.unparse({ fields, data: batch.map((row) => fields.map((field) => row[field])) }, { header: false })}\r\n`;
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= batchSize) {
      yield flush();
      batch = [];
    }
  }
  if (batch.length > 0) yield flush();
}

/**
 * The id a provider gives a report of its own (settlement or monthly statement). The sandbox
 * makes it from what the report covers, so asking again names the same report.
 */
export function sandboxReportId(kind: 'stl' | 'mst', provider: string, legalEntityId: string, currency: string, period: string): string {
  const digest = createHash('sha256').update(`${legalEntityId}\n${currency}`).digest('hex').slice(0, 12);
  return `${provider}_${kind}_${period.replaceAll('-', '')}_${digest}`;
}

export interface SettlementHeader {
  id: string;
  provider: string;
  providerSettlementId: string | null;
  legalEntityId: string;
  currency: string;
  settlementDate: string;
}

export type Totals = SettlementParts;

export const SETTLEMENT_COLUMNS = [
  'record_type',
  'settlement_id',
  'provider_settlement_id',
  'provider',
  'legal_entity_id',
  'currency',
  'settlement_date',
  'transacted_at',
  'provider_reference',
  'provider_charge_id',
  'payment_id',
  'refund_id',
  'invoice_id',
  'channel_id',
  'gross_amount',
  'refunded_amount',
  'fee_amount',
  'adjustment_amount',
  'net_amount',
  'reconciliation',
] as const;

export const FINANCIAL_ENTRY_COLUMNS = [
  'settlement_id',
  'entry_type',
  'amount',
  'currency',
  'booked_at',
  'provider_reference',
  'provider_charge_id',
  'payment_id',
  'refund_id',
  'invoice_id',
] as const;

type SettlementRow = Record<(typeof SETTLEMENT_COLUMNS)[number], string | number>;
type FinancialEntryRow = Record<(typeof FINANCIAL_ENTRY_COLUMNS)[number], string | number>;

/** Thrown when the books no longer add up to the settlement: the file is not written. */
export class BooksChanged extends Error {
  constructor(settlementId: string, expected: Totals, found: Totals) {
    super(
      `The provider's books for ${settlementId} no longer add up to the settlement: ` +
        `expected ${JSON.stringify(expected)}, found ${JSON.stringify(found)}.`,
    );
    this.name = 'BooksChanged';
  }
}

/**
 * Passes the lines through while summing them; after the last one, throws BooksChanged when the
 * sums differ from `expected`, so a file is only ever stored whole and agreeing.
 */
async function* verified(settlementId: string, lines: AsyncIterable<BookLine>, expected: Totals): AsyncGenerator<BookLine> {
  const found: Totals = { grossAmount: 0, refundedAmount: 0, feeAmount: 0, adjustmentAmount: 0 };
  for await (const line of lines) {
    found.grossAmount += line.grossAmount;
    found.refundedAmount += line.refundedAmount;
    found.feeAmount += line.feeAmount;
    found.adjustmentAmount += line.adjustmentAmount;
    yield line;
  }
  if (
    found.grossAmount !== expected.grossAmount ||
    found.refundedAmount !== expected.refundedAmount ||
    found.feeAmount !== expected.feeAmount ||
    found.adjustmentAmount !== expected.adjustmentAmount
  ) {
    throw new BooksChanged(settlementId, expected, found);
  }
}

/** One row per line (charge, refund, fee, adjustment), then a TOTAL row whose net_amount is the settlement's amount. */
export async function* settlementRows(header: SettlementHeader, lines: AsyncIterable<BookLine>, expected: Totals): AsyncGenerator<SettlementRow> {
  const common = {
    settlement_id: header.id,
    provider_settlement_id: header.providerSettlementId ?? '',
    provider: header.provider,
    legal_entity_id: header.legalEntityId,
    currency: header.currency,
    settlement_date: header.settlementDate,
  };
  for await (const line of verified(header.id, lines, expected)) {
    yield {
      record_type: line.kind,
      ...common,
      transacted_at: formatDateTime(line.transactedAt),
      provider_reference: line.providerReference,
      provider_charge_id: line.providerChargeId ?? '',
      payment_id: line.paymentId ?? '',
      refund_id: line.refundId ?? '',
      invoice_id: line.invoiceId ?? '',
      channel_id: line.channelId ?? '',
      gross_amount: line.grossAmount,
      refunded_amount: line.refundedAmount,
      fee_amount: line.feeAmount,
      adjustment_amount: line.adjustmentAmount,
      net_amount: netOf(line),
      reconciliation: line.reconciliation,
    };
  }
  yield {
    record_type: 'TOTAL',
    ...common,
    transacted_at: '',
    provider_reference: '',
    provider_charge_id: '',
    payment_id: '',
    refund_id: '',
    invoice_id: '',
    channel_id: '',
    gross_amount: expected.grossAmount,
    refunded_amount: expected.refundedAmount,
    fee_amount: expected.feeAmount,
    adjustment_amount: expected.adjustmentAmount,
    net_amount: netOf(expected),
    reconciliation: '',
  };
}

/**
 * Signed entries: a charge is CHARGE (+), a refund REFUND (−), an adjustment ADJUSTMENT (±), and
 * any line's fee a FEE (−, + when given back); they sum to the net amount.
 */
export async function* financialEntryRows(header: SettlementHeader, lines: AsyncIterable<BookLine>, expected: Totals): AsyncGenerator<FinancialEntryRow> {
  for await (const line of verified(header.id, lines, expected)) {
    const common = {
      settlement_id: header.id,
      currency: line.currency,
      booked_at: formatDateTime(line.transactedAt),
      provider_reference: line.providerReference,
      provider_charge_id: line.providerChargeId ?? '',
      payment_id: line.paymentId ?? '',
      refund_id: line.refundId ?? '',
      invoice_id: line.invoiceId ?? '',
    };
    if (line.kind === 'CHARGE') yield { ...common, entry_type: 'CHARGE', amount: line.grossAmount };
    if (line.kind === 'REFUND') yield { ...common, entry_type: 'REFUND', amount: -line.refundedAmount };
    if (line.kind === 'ADJUSTMENT') yield { ...common, entry_type: 'ADJUSTMENT', amount: line.adjustmentAmount };
    if (line.feeAmount !== 0 || line.kind === 'FEE') yield { ...common, entry_type: 'FEE', amount: -line.feeAmount };
  }
}
