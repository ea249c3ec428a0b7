import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { utcDayOf } from '../../domain/settlement-dates';
import { dateTimeRangeFilter, valueFilter } from '../common/filters';
import { paginationRequest, paginationResponse } from '../common/pagination';
import { dateTime, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { MONTHLY_STATEMENT_FILE_TYPES, monthlyStatementDownloadName } from '../../domain/monthly-statement-files';
import { storedFileEntry } from '../files/stored-file-entry';
import { date, SETTLEMENT_DOWNLOAD_TTL_SECONDS, storedFileObject } from '../settlements/schemas';

/**
 * Section 2.6, plus `files` (an added response field, non-breaking by section 9.3): the
 * statement's CSV in the shape section 2.7 gives settlement files (docs/monthly-statements.md).
 */
export const monthlyStatementObject = z
  .object({
    id: z.string(),
    provider_statement_id: z.string().optional(),
    provider: z.string(),
    legal_entity_id: z.string(),
    currency: z.string().optional(),
    period_from: date.optional(),
    period_to: date.optional(),
    uploaded_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
    files: z.array(storedFileObject(z.enum(MONTHLY_STATEMENT_FILE_TYPES))).meta({
      description:
        'An extension of section 2.6: the statement’s CSV, `PROCESSING` until the provider uploaded it, then `SUCCEEDED` with a `download_url` (docs/monthly-statements.md).',
    }),
  })
  .meta({ id: 'MonthlyStatement' });

export type MonthlyStatementObject = z.infer<typeof monthlyStatementObject>;

/** Section 4.7: both ends required and inclusive; a statement matches when its whole period lies between them. */
export const periodRangeFilter = z.strictObject({
  operator: z.literal('RANGE'),
  value: z
    .strictObject({ from: date, to: date })
    .refine((range) => range.from <= range.to, { message: '`from` must not be after `to`.', params: { type: 'RANGE' }, path: ['to'] }),
});

export const listMonthlyStatementsRequest = z.strictObject({
  filters: z
    .strictObject({
      legal_entity_id: valueFilter(['EQ', 'NEQ', 'IN'], prefixedId('legalEntity'))
        .optional()
        .meta({ description: 'With IN, an array or one comma-separated string.' }),
      currency: valueFilter(['EQ', 'NEQ', 'IN'], currency).optional().meta({ description: 'With IN, an array or one comma-separated string.' }),
      period: periodRangeFilter.optional().meta({
        description: 'Statements whose period lies within [from, to], both dates inclusive. Statements without a period never match.',
      }),
      uploaded_at: dateTimeRangeFilter.optional().meta({
        description:
          '`{from?, to?}` date-times (at least one; from inclusive, to exclusive) or one date-time meaning `{from}`. Statements not uploaded never match.',
      }),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listMonthlyStatementsResponse = z.object({ items: z.array(monthlyStatementObject), pagination: paginationResponse });

export const monthlyStatementSelect = {
  id: true,
  providerStatementId: true,
  provider: true,
  legalEntityId: true,
  currency: true,
  periodFrom: true,
  periodTo: true,
  uploadedAt: true,
  storageKey: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface MonthlyStatementRow {
  id: string;
  providerStatementId: string | null;
  provider: string;
  legalEntityId: string;
  currency: string | null;
  periodFrom: Date | null;
  periodTo: Date | null;
  uploadedAt: Date | null;
  storageKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function serializeMonthlyStatement(row: MonthlyStatementRow, now: Date): MonthlyStatementObject {
  return {
    id: row.id,
    ...(row.providerStatementId !== null ? { provider_statement_id: row.providerStatementId } : {}),
    provider: row.provider,
    legal_entity_id: row.legalEntityId,
    ...(row.currency !== null ? { currency: row.currency } : {}),
    ...(row.periodFrom ? { period_from: utcDayOf(row.periodFrom) } : {}),
    ...(row.periodTo ? { period_to: utcDayOf(row.periodTo) } : {}),
    ...(row.uploadedAt ? { uploaded_at: formatDateTime(row.uploadedAt) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    // The upload stores the file and sets uploaded_at in one update: a stored file is an uploaded one.
    files: [
      storedFileEntry(
        {
          type: 'MONTHLY_STATEMENT' as const,
          status: row.uploadedAt && row.storageKey ? ('SUCCEEDED' as const) : ('PROCESSING' as const),
          storageKey: row.storageKey,
          downloadName: monthlyStatementDownloadName(row.id),
        },
        now,
        SETTLEMENT_DOWNLOAD_TTL_SECONDS,
      ),
    ],
  };
}
