import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { exactNumber } from '../../domain/payments';
import { utcDayOf } from '../../domain/settlement-dates';
import {
  SETTLEMENT_FILE_STATUSES,
  SETTLEMENT_FILE_TYPES,
  settlementFileDownloadName,
  type SettlementFileStatus,
  type SettlementFileType,
} from '../../domain/settlement-files';
import { dateTime } from '../common/schemas';
import { storedFileEntry } from '../files/stored-file-entry';

/** 15 minutes: long enough to fetch both files of a settlement, short enough not to be shared. */
export const SETTLEMENT_DOWNLOAD_TTL_SECONDS = 15 * 60;

export const date = z.iso.date().meta({ description: 'A UTC calendar date, YYYY-MM-DD.' });

/** A `files` entry as section 2.7 gives settlements; monthly statements use the same shape (docs/monthly-statements.md). */
export function storedFileObject<Type extends z.ZodType<string, string>>(type: Type) {
  return z.object({
    type,
    status: z.enum(SETTLEMENT_FILE_STATUSES),
    download_url: z
      .string()
      .optional()
      .meta({ description: `Only when SUCCEEDED: a signed link valid for ${SETTLEMENT_DOWNLOAD_TTL_SECONDS / 60} minutes.` }),
  });
}

/** Section 2.7. */
export const settlementObject = z
  .object({
    id: z.string(),
    provider_settlement_id: z.string().optional(),
    provider: z.string(),
    legal_entity_id: z.string(),
    amount: z.number().int().meta({ description: 'Net amount paid out, minor units: charged minus refunded minus fees; negative when the day’s refunds and fees exceed its charges.' }),
    currency: z.string(),
    settlement_date: date,
    period_from: date.optional(),
    period_to: date.optional(),
    created_at: dateTime,
    updated_at: dateTime,
    files: z.array(storedFileObject(z.enum(SETTLEMENT_FILE_TYPES))),
  })
  .meta({ id: 'Settlement' });

export type SettlementObject = z.infer<typeof settlementObject>;

export interface SettlementRow {
  id: string;
  providerSettlementId: string | null;
  provider: string;
  legalEntityId: string;
  amount: bigint;
  currency: string;
  settlementDate: Date;
  periodFrom: Date | null;
  periodTo: Date | null;
  createdAt: Date;
  updatedAt: Date;
  files: Array<{ type: string; status: string; storageKey: string | null }>;
}

const FILE_ORDER: readonly string[] = SETTLEMENT_FILE_TYPES;

export function serializeSettlement(row: SettlementRow, now: Date): SettlementObject {
  return {
    id: row.id,
    ...(row.providerSettlementId !== null ? { provider_settlement_id: row.providerSettlementId } : {}),
    provider: row.provider,
    legal_entity_id: row.legalEntityId,
    amount: exactNumber(row.amount, 'amount'),
    currency: row.currency,
    settlement_date: utcDayOf(row.settlementDate),
    ...(row.periodFrom ? { period_from: utcDayOf(row.periodFrom) } : {}),
    ...(row.periodTo ? { period_to: utcDayOf(row.periodTo) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    files: [...row.files]
      .sort((a, b) => FILE_ORDER.indexOf(a.type) - FILE_ORDER.indexOf(b.type))
      .map((file) => {
        const type = file.type as SettlementFileType;
        return storedFileEntry(
          { type, status: file.status as SettlementFileStatus, storageKey: file.storageKey, downloadName: settlementFileDownloadName(row.id, type) },
          now,
          SETTLEMENT_DOWNLOAD_TTL_SECONDS,
        );
      }),
  };
}

/** What settlements/get and settlements/list read: the row and its files. */
export const settlementInclude = { files: { select: { type: true, status: true, storageKey: true } } } as const;

/**
 * A date RANGE: `from` and `to` UTC dates, both inclusive, at least one of them; `from` not
 * after `to` (docs/settlements.md, "settlements/list").
 */
export const dateRangeFilter = z.strictObject({
  operator: z.literal('RANGE'),
  value: z
    .strictObject({ from: date.optional(), to: date.optional() })
    .refine((range) => range.from !== undefined || range.to !== undefined, { message: 'Give `from`, `to` or both.', params: { type: 'REQUIRED' } })
    .refine((range) => range.from === undefined || range.to === undefined || range.from <= range.to, {
      message: '`from` must not be after `to`.',
      params: { type: 'RANGE' },
      path: ['to'],
    })
    .meta({ anyOf: [{ required: ['from'] }, { required: ['to'] }] }),
});
