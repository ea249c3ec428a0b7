import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { formatDateTime } from '../domain/datetime';
import { newId } from '../domain/ids';
import { forEachConcurrently, inChunks, isBatchLimit, MAX_RECORDS_PER_BATCH, type BatchCursor } from '../domain/settlement-batches';
import { addDays, isMonth, monthPeriod, startOfDay, utcDayOf } from '../domain/settlement-dates';
import type { Database } from '../prisma/client';
import { bookLines, bookTotals } from './settlement-books';
import { csvChunks, sandboxReportId } from './settlement-files';
import { fileStorageFromEnv } from '../services/files/storage-from-env';
import type { FileStorage } from '../services/files/storage';

export function monthlyStatementKey(statementId: string): string {
  return `monthly-statements/${statementId}/statement.csv`;
}

export const MONTHLY_STATEMENT_COLUMNS = [
  'record_type',
  'statement_id',
  'provider_statement_id',
  'provider',
  'legal_entity_id',
  'currency',
  'date',
  'charges',
  'refunds',
  'gross_amount',
  'refunded_amount',
  'fee_amount',
  'net_amount',
] as const;

type StatementRow = Record<(typeof MONTHLY_STATEMENT_COLUMNS)[number], string | number>;

interface DayTotals {
  charges: number;
  refunds: number;
  gross: number;
  refunded: number;
  fee: number;
}

export interface MonthlyStatementActivityDependencies {
  db: Database;
  storage?: FileStorage;
}

export interface MonthlyStatementBatchInput extends BatchCursor {
  month: string;
}

export interface MonthlyStatementBatchResult {
  /** The cursor of the next batch: the last statement of this one, null when it held none. */
  last: string | null;
  /** No statement of the month comes after this batch. */
  complete: boolean;
}

export function createMonthlyStatementActivities({ db, storage = fileStorageFromEnv() }: MonthlyStatementActivityDependencies) {
  /**
   * Records one statement per provider, legal entity and currency with activity in `month`
   * (`YYYY-MM`), not yet uploaded. Unique per provider, legal entity, currency and period, so a
   * rerun adds none twice. Returns the start of the period, which names the month's statements.
   */
  async function record(month: string): Promise<Date> {
    if (!isMonth(month)) throw ApplicationFailure.nonRetryable(`Not a month (YYYY-MM): ${month}`, 'INVALID_MONTH');
    const period = monthPeriod(month);
    const periodFrom = startOfDay(period.from);
    const totals = (await bookTotals(db, { from: periodFrom, to: startOfDay(addDays(period.to, 1)) })).filter(
      (total) => total.legalEntityId !== null && total.accountId !== null,
    );
    const now = new Date();
    for (const chunk of inChunks(totals)) {
      await db.monthlyStatement.createMany({
        data: chunk.map((total) => ({
          id: newId('monthlyStatement'),
          accountId: total.accountId!,
          legalEntityId: total.legalEntityId!,
          provider: total.provider,
          providerStatementId: sandboxReportId('mst', total.provider, total.legalEntityId!, total.currency, month),
          currency: total.currency,
          periodFrom,
          periodTo: startOfDay(period.to),
          createdAt: now,
          updatedAt: now,
        })),
        skipDuplicates: true,
      });
    }
    return periodFrom;
  }

  /**
   * Writes the statement's CSV (one row per day with activity, then a TOTAL row) and sets
   * `uploaded_at`. Uploading again rewrites the same content; `uploaded_at` is set once.
   */
  async function upload(statementId: string): Promise<{ uploadedAt: string }> {
    const statement = await db.monthlyStatement.findUniqueOrThrow({ where: { id: statementId } });
    if (statement.uploadedAt) return { uploadedAt: formatDateTime(statement.uploadedAt) };
    if (!statement.periodFrom || !statement.periodTo || !statement.currency) {
      throw ApplicationFailure.nonRetryable(`Statement ${statementId} has no period or currency to upload.`, 'INCOMPLETE_STATEMENT');
    }
    const days = new Map<string, DayTotals>();
    for await (const line of bookLines(db, {
      from: statement.periodFrom,
      to: startOfDay(addDays(utcDayOf(statement.periodTo), 1)),
      provider: statement.provider,
      legalEntityId: statement.legalEntityId,
      currency: statement.currency,
    })) {
      const day = utcDayOf(line.transactedAt);
      const totals = days.get(day) ?? { charges: 0, refunds: 0, gross: 0, refunded: 0, fee: 0 };
      if (line.kind === 'CHARGE') totals.charges += 1;
      else totals.refunds += 1;
      totals.gross += line.grossAmount;
      totals.refunded += line.refundedAmount;
      totals.fee += line.feeAmount;
      days.set(day, totals);
    }
    const common = {
      statement_id: statement.id,
      provider_statement_id: statement.providerStatementId ?? '',
      provider: statement.provider,
      legal_entity_id: statement.legalEntityId,
      currency: statement.currency,
    };
    const row = (recordType: string, date: string, totals: DayTotals): StatementRow => ({
      record_type: recordType,
      ...common,
      date,
      charges: totals.charges,
      refunds: totals.refunds,
      gross_amount: totals.gross,
      refunded_amount: totals.refunded,
      fee_amount: totals.fee,
      net_amount: totals.gross - totals.refunded - totals.fee,
    });
    async function* rows(): AsyncGenerator<StatementRow> {
      const month: DayTotals = { charges: 0, refunds: 0, gross: 0, refunded: 0, fee: 0 };
      for (const [date, totals] of [...days].sort(([a], [b]) => a.localeCompare(b))) {
        for (const field of Object.keys(month) as (keyof DayTotals)[]) month[field] += totals[field];
        yield row('DAY', date, totals);
      }
      yield row('TOTAL', '', month);
    }
    const key = monthlyStatementKey(statement.id);
    await storage.write(key, csvChunks(MONTHLY_STATEMENT_COLUMNS, rows()));
    const uploadedAt = new Date();
    await db.monthlyStatement.updateMany({ where: { id: statement.id, uploadedAt: null }, data: { uploadedAt, storageKey: key, updatedAt: uploadedAt } });
    const stored = await db.monthlyStatement.findUniqueOrThrow({ where: { id: statement.id }, select: { uploadedAt: true } });
    return { uploadedAt: formatDateTime(stored.uploadedAt!) };
  }

  return {
    /**
     * Records the month's statements and hands back only how many are still to upload, so the
     * run's history does not grow with them; they are uploaded in batches.
     */
    async openMonthlyStatements({ month }: { month: string }): Promise<{ month: string; pending: number }> {
      const periodFrom = await record(month);
      return { month, pending: await db.monthlyStatement.count({ where: { periodFrom, uploadedAt: null } }) };
    },

    /**
     * Uploads the statements of the batch not uploaded yet, a few at a time. The batch is the
     * next statements of the month by id, whatever their state, so a retry covers the same ones
     * and skips those an earlier attempt uploaded.
     */
    async uploadMonthlyStatementBatch({ month, after, limit }: MonthlyStatementBatchInput): Promise<MonthlyStatementBatchResult> {
      if (!isMonth(month)) throw ApplicationFailure.nonRetryable(`Not a month (YYYY-MM): ${month}`, 'INVALID_MONTH');
      if (!isBatchLimit(limit)) throw ApplicationFailure.nonRetryable(`A batch holds 1 to ${MAX_RECORDS_PER_BATCH} statements, not ${limit}.`, 'INVALID_BATCH');
      const batch = await db.monthlyStatement.findMany({
        where: { periodFrom: startOfDay(monthPeriod(month).from), ...(after !== null ? { id: { gt: after } } : {}) },
        select: { id: true, uploadedAt: true },
        orderBy: { id: 'asc' },
        take: limit,
      });
      await forEachConcurrently(
        batch.filter((statement) => statement.uploadedAt === null),
        async (statement) => {
          await upload(statement.id);
          heartbeat();
        },
      );
      return { last: batch[batch.length - 1]?.id ?? null, complete: batch.length < limit };
    },

    /** For runs started before batches (docs/monthly-statements.md): every statement of the month still to upload. */
    async planMonthlyStatements({ month }: { month: string }): Promise<{ month: string; statementIds: string[] }> {
      const periodFrom = await record(month);
      const pending = await db.monthlyStatement.findMany({ where: { periodFrom, uploadedAt: null }, select: { id: true }, orderBy: { id: 'asc' } });
      return { month, statementIds: pending.map((row) => row.id) };
    },

    /** One statement, for runs started before batches. */
    async uploadMonthlyStatement({ statementId }: { statementId: string }): Promise<{ uploadedAt: string }> {
      return upload(statementId);
    },
  };
}
