/** The columns of a report the API answers with (and whether its file is stored). */
export const reportSelect = {
  id: true,
  accountId: true,
  reportType: true,
  status: true,
  dateFrom: true,
  dateTo: true,
  channelIds: true,
  rowCount: true,
  byteSize: true,
  storageKey: true,
  failureReason: true,
  createdAt: true,
  updatedAt: true,
  expiresAt: true,
} as const;

export interface ReportRow {
  id: string;
  reportType: string;
  status: string;
  dateFrom: Date;
  dateTo: Date;
  channelIds: string[];
  rowCount: number | null;
  byteSize: bigint | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}
