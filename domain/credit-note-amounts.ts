import { ApiError } from './errors';
import { taxedAmount, type TaxMode } from './invoice-amounts';
import { divideHalfUp } from './rounding';

/**
 * The lines of a credit note (docs/credit-notes.md, "Amounts"), pure and in integers.
 *
 * - A lump sum (`amount`): one line of that total, no tax attributed.
 * - Per invoice line, by `quantity` (units of the line) or `amount` (of the line's taxable
 *   amount, in its own terms: tax inside it when INCLUSIVE). Quantity q of a line of n units
 *   and taxable T credits round half up(T × q / n); the units that finish the line credit
 *   exactly what is left of it, so rounding never leaves a remainder.
 * - Tax is the invoice rule itself (taxedAmount, rules 4 and 5 of invoice-amounts.ts) on what
 *   the line has had credited in all, minus what earlier notes took: crediting a line in parts
 *   gives back exactly its tax, never a cent more or less.
 */

export interface CreditableLine {
  id: string;
  description: string | null;
  quantity: number;
  /** The invoice line's taxable amount (subtotal − discount). */
  taxable: number;
  tax: { mode: TaxMode; rate: number | string } | null;
  /** What issued (not voided) credit notes already took from this line. */
  credited: { quantity: number; taxable: number };
}

export type LineCreditRequest = { line_item_id: string; quantity: number; amount?: undefined } | { line_item_id: string; amount: number; quantity?: undefined };

export type CreditRequest = { amount: number; lines?: undefined } | { lines: readonly LineCreditRequest[]; amount?: undefined };

export interface CreditNoteLineAmounts {
  invoiceLineItemId: string | null;
  description: string | null;
  quantity: number | null;
  taxable: number;
  tax: number;
  taxMode: TaxMode | null;
  taxRate: string | null;
  total: number;
}

export interface CreditNoteAmounts {
  lines: CreditNoteLineAmounts[];
  tax: number;
  total: number;
}

export const LUMP_SUM_DESCRIPTION = 'Credit';

export function computeCreditNoteAmounts(invoiceLines: readonly CreditableLine[], request: CreditRequest): CreditNoteAmounts {
  const lines = request.lines === undefined ? [lumpSum(request.amount)] : creditedLines(invoiceLines, request.lines);
  const total = lines.reduce((sum, line) => sum + line.total, 0);
  if (total === 0) {
    throw new ApiError('CREDIT_NOTE_EMPTY', 'The credit note would credit nothing: every line it names comes to 0.', { total_amount: 0 });
  }
  return { lines, tax: lines.reduce((sum, line) => sum + line.tax, 0), total };
}

function lumpSum(amount: number): CreditNoteLineAmounts {
  return { invoiceLineItemId: null, description: LUMP_SUM_DESCRIPTION, quantity: null, taxable: amount, tax: 0, taxMode: null, taxRate: null, total: amount };
}

function creditedLines(invoiceLines: readonly CreditableLine[], requested: readonly LineCreditRequest[]): CreditNoteLineAmounts[] {
  const byId = new Map(invoiceLines.map((line) => [line.id, line]));
  const seen = new Set<string>();
  return requested.map((request, index) => {
    const field = `lines[${index}]`;
    const line = byId.get(request.line_item_id);
    if (!line) {
      throw new ApiError('INVOICE_LINE_ITEM_NOT_FOUND', `Line item ${request.line_item_id} is not a line of this invoice.`, {
        field: `${field}.line_item_id`,
        line_item_id: request.line_item_id,
      });
    }
    if (seen.has(line.id)) {
      throw ApiError.validation({ [`${field}.line_item_id`]: { type: 'INVALID', message: `Line item ${line.id} is named twice.` } });
    }
    seen.add(line.id);
    const leftQuantity = line.quantity - line.credited.quantity;
    const leftTaxable = line.taxable - line.credited.taxable;
    let taxable: number;
    if (request.quantity !== undefined) {
      if (request.quantity > leftQuantity) {
        throw exceedsLine(field, line, `quantity ${request.quantity} asked, ${leftQuantity} of ${line.quantity} left to credit`, leftQuantity, leftTaxable);
      }
      taxable =
        request.quantity === leftQuantity ? leftTaxable : Math.min(leftTaxable, Number(divideHalfUp(BigInt(line.taxable) * BigInt(request.quantity), BigInt(line.quantity))));
    } else {
      if (request.amount > leftTaxable) {
        throw exceedsLine(field, line, `amount ${request.amount} asked, ${leftTaxable} of ${line.taxable} left to credit`, leftQuantity, leftTaxable);
      }
      taxable = request.amount;
    }
    const before = taxedAmount(line.credited.taxable, line.tax);
    const after = taxedAmount(line.credited.taxable + taxable, line.tax);
    return {
      invoiceLineItemId: line.id,
      description: line.description,
      quantity: request.quantity ?? null,
      taxable,
      tax: after.tax - before.tax,
      taxMode: line.tax?.mode ?? null,
      taxRate: line.tax ? String(line.tax.rate) : null,
      total: after.total - before.total,
    };
  });
}

function exceedsLine(field: string, line: CreditableLine, detail: string, leftQuantity: number, leftTaxable: number): ApiError {
  return new ApiError('CREDIT_NOTE_EXCEEDS_LINE', `Line item ${line.id}: ${detail}.`, {
    field,
    line_item_id: line.id,
    remaining_quantity: leftQuantity,
    remaining_amount: leftTaxable,
  });
}
