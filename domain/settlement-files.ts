/** The two files of a settlement (section 2.7), their storage keys and download names (docs/settlements.md). */
export const SETTLEMENT_FILE_TYPES = ['SETTLEMENT', 'FINANCIAL_ENTRIES'] as const;
export type SettlementFileType = (typeof SETTLEMENT_FILE_TYPES)[number];

/** PROCESSING → SUCCEEDED | FAILED; FAILED → PROCESSING when the day is settled again. */
export const SETTLEMENT_FILE_STATUSES = ['PROCESSING', 'SUCCEEDED', 'FAILED'] as const;
export type SettlementFileStatus = (typeof SETTLEMENT_FILE_STATUSES)[number];

export const SETTLEMENT_FILE_NAMES: Readonly<Record<SettlementFileType, string>> = {
  SETTLEMENT: 'settlement.csv',
  FINANCIAL_ENTRIES: 'financial-entries.csv',
};

export function settlementFileKey(settlementId: string, type: SettlementFileType): string {
  return `settlements/${settlementId}/${SETTLEMENT_FILE_NAMES[type]}`;
}

/** What the file downloads as: named by its settlement, so two downloads never collide. */
export function settlementFileDownloadName(settlementId: string, type: SettlementFileType): string {
  return `${settlementId}-${SETTLEMENT_FILE_NAMES[type]}`;
}
