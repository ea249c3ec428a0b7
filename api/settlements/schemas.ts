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
import { storedFileUrl } from '../files/stored-file-url';

/** 15 minutes: long enough to fetch both files of a settlement, short enough not to be shared. */
export const SETTLEMENT_DOWNLOAD_TTL_SECONDS = 15 * 60;

export const date = z.iso.date().meta({ description: 'A UTC calendar date, YYYY-MM-DD.' });

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
    files: z.array(
      z.object({
        type: z.enum(SETTLEMENT_FILE_TYPES),
        status: z.enum(SETTLEMENT_FILE_STATUSES),
        download_url: z
          .string()
          .optional()
          .meta({ description: `Only when SUCCEEDED: a signed link valid for ${SETTLEMENT_DOWNLOAD_TTL_SECONDS / 60} minutes.` }),
      }),
    ),
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
        const status = file.status as SettlementFileStatus;
        const url =
          status === 'SUCCEEDED' && file.storageKey
            ? storedFileUrl(file.storageKey, settlementFileDownloadName(row.id, type), now, SETTLEMENT_DOWNLOAD_TTL_SECONDS)
            : undefined;
        return { type, status, ...(url ? { download_url: url } : {}) };
      }),
  };
}
