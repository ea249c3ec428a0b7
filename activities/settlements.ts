import { heartbeat, log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Prisma } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { forEachConcurrently, inChunks, isBatchLimit, MAX_RECORDS_PER_BATCH, type BatchCursor } from '../domain/settlement-batches';
import { exactNumber } from '../domain/payments';
import { addDays, isDay, startOfDay, utcDayOf } from '../domain/settlement-dates';
import { SETTLEMENT_FILE_TYPES, settlementFileKey, type SettlementFileStatus, type SettlementFileType } from '../domain/settlement-files';
import { payoutWindow, STRIPE_PROVIDER } from '../domain/stripe-payouts';
import type { Database } from '../prisma/client';
import { bookLines, bookTotals } from './settlement-books';
import { storedLines } from './settlement-lines';
import {
  BooksChanged,
  csvChunks,
  FINANCIAL_ENTRY_COLUMNS,
  financialEntryRows,
  sandboxReportId,
  SETTLEMENT_COLUMNS,
  settlementRows,
  type SettlementHeader,
} from './settlement-files';
import { fileStorageFromEnv } from '../services/files/storage-from-env';
import type { FileStorage } from '../services/files/storage';

export interface SettleDayResult {
  day: string;
  /** Settlements of the day with the files still to build. */
  settlements: Array<{ settlementId: string; files: SettlementFileType[] }>;
  /** Provider lines of the day no legal entity receives: left out, see docs/settlements.md. */
  unassigned: Array<{ provider: string; currency: string; lines: number }>;
}

export interface OpenedSettlementDay {
  day: string;
  /** When the day was opened (ISO): a file whose status changed since was built or failed by this run. */
  since: string;
  /** Settlements with files to build. */
  settlements: number;
  /** Provider lines of the day no legal entity receives: left out, see docs/settlements.md. */
  unassignedLines: number;
}

export interface SettlementBatchInput extends BatchCursor {
  day: string;
  /** `OpenedSettlementDay.since` of the run. */
  since: string;
}

export interface SettlementBatchResult {
  /** The cursor of the next batch: the last settlement of this one, null when it held none. */
  last: string | null;
  /** No settlement of the day comes after this batch. */
  complete: boolean;
  /** Files of the batch's settlements this run built or failed, read back from their status: a retried batch counts each once. */
  filesSucceeded: number;
  filesFailed: number;
}

export interface SettlementActivityDependencies {
  db: Database;
  storage?: FileStorage;
}

/** The reason a FAILED file keeps: the failure type first when there is one (docs/settlements.md, "File status"). */
function failureReason(error: unknown): string {
  if (error instanceof ApplicationFailure && error.type) return `${error.type}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function createSettlementActivities({ db, storage = fileStorageFromEnv() }: SettlementActivityDependencies) {
  /** A file's status is part of its settlement (section 2.7 `files`): changing it updates the settlement too. */
  async function markFile(
    settlementId: string,
    type: SettlementFileType,
    from: string | { not: string },
    change: { status: SettlementFileStatus; storageKey?: string; failureReason: string | null },
  ): Promise<void> {
    await db.$transaction(async (tx) => {
      const now = new Date();
      const { count } = await tx.settlementFile.updateMany({ where: { settlementId, type, status: from }, data: { ...change, updatedAt: now } });
      if (count > 0) await tx.settlement.update({ where: { id: settlementId }, data: { updatedAt: now } });
    });
  }

  /** The dates of the sandbox's settlements of `day`. */
  function ofDay(day: string) {
    return { settlementDate: startOfDay(addDays(day, 1)), periodFrom: startOfDay(day) };
  }

  /**
   * The settlements a run of `day` covers: the sandbox's of that day, and those of the Stripe
   * payouts arriving in its window (docs/settlements.md, "Settlements from Stripe").
   */
  function ofRun(day: string): Prisma.SettlementWhereInput {
    const { firstDay, lastDay } = payoutWindow(day);
    return {
      OR: [
        { ...ofDay(day), provider: { not: STRIPE_PROVIDER } },
        { provider: STRIPE_PROVIDER, settlementDate: { gte: startOfDay(firstDay), lte: startOfDay(lastDay) } },
      ],
    };
  }

  /**
   * Settles every sandbox provider's lines of `day` per legal entity and currency, in one
   * transaction. A settlement is written once (unique per account, provider and report id, which
   * the sandbox makes from the legal entity, currency and day): a rerun finds it and only resets
   * its FAILED files to PROCESSING (the run's Stripe settlements' too), to be built again.
   */
  async function settle(day: string): Promise<{ openedAt: Date; unassigned: SettleDayResult['unassigned'] }> {
    if (!isDay(day)) throw ApplicationFailure.nonRetryable(`Not a day (YYYY-MM-DD): ${day}`, 'INVALID_DAY');
    const totals = await bookTotals(db, { from: startOfDay(day), to: startOfDay(addDays(day, 1)) });
    const unassigned = totals
      .filter((total) => total.legalEntityId === null)
      .map((total) => ({ provider: total.provider, currency: total.currency, lines: total.lines }));
    for (const group of unassigned) {
      log.warn('Provider lines with no legal entity left out of settlement', { day, ...group });
    }
    const assigned = totals.filter((total) => total.legalEntityId !== null && total.accountId !== null);
    const { settlementDate, periodFrom: period } = ofDay(day);
    const openedAt = await db.$transaction(
      async (tx) => {
        const now = new Date();
        for (const chunk of inChunks(assigned)) {
          await tx.settlement.createMany({
            data: chunk.map((total) => ({
              id: newId('settlement'),
              accountId: total.accountId!,
              legalEntityId: total.legalEntityId!,
              provider: total.provider,
              providerSettlementId: sandboxReportId('stl', total.provider, total.legalEntityId!, total.currency, day),
              currency: total.currency,
              amount: total.grossAmount - total.refundedAmount - total.feeAmount,
              grossAmount: total.grossAmount,
              refundedAmount: total.refundedAmount,
              feeAmount: total.feeAmount,
              settlementDate,
              periodFrom: period,
              periodTo: period,
              createdAt: now,
              updatedAt: now,
            })),
            skipDuplicates: true,
          });
        }
        const ids = (await tx.settlement.findMany({ where: ofRun(day), select: { id: true }, orderBy: { id: 'asc' } })).map((row) => row.id);
        for (const chunk of inChunks(ids)) {
          await tx.settlementFile.createMany({
            data: chunk.flatMap((settlementId) =>
              SETTLEMENT_FILE_TYPES.map((type) => ({ id: newId('settlementFile'), settlementId, type, status: 'PROCESSING', createdAt: now, updatedAt: now })),
            ),
            skipDuplicates: true,
          });
        }
        await tx.settlement.updateMany({ where: { ...ofRun(day), files: { some: { status: 'FAILED' } } }, data: { updatedAt: now } });
        await tx.settlementFile.updateMany({
          where: { status: 'FAILED', settlement: ofRun(day) },
          data: { status: 'PROCESSING', failureReason: null, updatedAt: now },
        });
        return now;
      },
      { timeout: 120_000 },
    );
    return { openedAt, unassigned };
  }

  /**
   * Writes one file from the provider's books and marks it SUCCEEDED. The lines are read again
   * (the sandbox's books, or the lines a Stripe payout's settlement was made with) and must add up
   * to the settlement, else the file fails for good (BOOKS_CHANGED) rather than disagree with it.
   * Rebuilding writes the same bytes to the same key.
   */
  async function buildFile(settlementId: string, type: SettlementFileType): Promise<{ bytes: number }> {
    const settlement = await db.settlement.findUniqueOrThrow({ where: { id: settlementId } });
    const day = utcDayOf(settlement.periodFrom ?? settlement.settlementDate);
    const to = utcDayOf(settlement.periodTo ?? settlement.settlementDate);
    const header: SettlementHeader = {
      id: settlement.id,
      provider: settlement.provider,
      providerSettlementId: settlement.providerSettlementId,
      legalEntityId: settlement.legalEntityId,
      currency: settlement.currency,
      settlementDate: utcDayOf(settlement.settlementDate),
    };
    const lines =
      settlement.provider === STRIPE_PROVIDER
        ? storedLines(db, settlement)
        : bookLines(db, {
            from: startOfDay(day),
            to: startOfDay(addDays(to, 1)),
            provider: settlement.provider,
            legalEntityId: settlement.legalEntityId,
            currency: settlement.currency,
          });
    const expected = {
      grossAmount: exactNumber(settlement.grossAmount, 'gross'),
      refundedAmount: exactNumber(settlement.refundedAmount, 'refunded'),
      feeAmount: exactNumber(settlement.feeAmount, 'fee'),
      adjustmentAmount: exactNumber(settlement.adjustmentAmount, 'adjustment'),
    };
    const key = settlementFileKey(settlement.id, type);
    let written: { bytes: number };
    try {
      written = await storage.write(
        key,
        type === 'SETTLEMENT'
          ? csvChunks(SETTLEMENT_COLUMNS, settlementRows(header, lines, expected))
          : csvChunks(FINANCIAL_ENTRY_COLUMNS, financialEntryRows(header, lines, expected)),
      );
    } catch (error) {
      if (error instanceof BooksChanged) throw ApplicationFailure.nonRetryable(error.message, 'BOOKS_CHANGED');
      throw error;
    }
    await markFile(settlementId, type, { not: 'SUCCEEDED' }, { status: 'SUCCEEDED', storageKey: key, failureReason: null });
    return written;
  }

  async function failFile(settlementId: string, type: SettlementFileType, reason: string): Promise<void> {
    await markFile(settlementId, type, 'PROCESSING', { status: 'FAILED', failureReason: reason.slice(0, 2_000) });
  }

  /**
   * The batch after the cursor: the next settlements of the day by id, whatever their files'
   * status, so every attempt of a batch covers the same settlements.
   */
  async function batchOf({ day, after, limit }: SettlementBatchInput) {
    if (!isDay(day)) throw ApplicationFailure.nonRetryable(`Not a day (YYYY-MM-DD): ${day}`, 'INVALID_DAY');
    if (!isBatchLimit(limit)) throw ApplicationFailure.nonRetryable(`A batch holds 1 to ${MAX_RECORDS_PER_BATCH} settlements, not ${limit}.`, 'INVALID_BATCH');
    return db.settlement.findMany({
      where: { ...ofRun(day), ...(after !== null ? { id: { gt: after } } : {}) },
      select: { id: true, files: { where: { status: 'PROCESSING' }, select: { type: true }, orderBy: { type: 'asc' } } },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** What the batch's files show now: those whose status changed since the run opened the day were built or failed by it. */
  async function outcomeOf(batch: Array<{ id: string }>, { limit, since }: SettlementBatchInput): Promise<SettlementBatchResult> {
    const settled = await db.settlementFile.groupBy({
      by: ['status'],
      where: { settlementId: { in: batch.map((settlement) => settlement.id) }, status: { in: ['SUCCEEDED', 'FAILED'] }, updatedAt: { gte: new Date(since) } },
      _count: { _all: true },
    });
    const count = (status: SettlementFileStatus) => settled.find((group) => group.status === status)?._count._all ?? 0;
    return {
      last: batch[batch.length - 1]?.id ?? null,
      complete: batch.length < limit,
      filesSucceeded: count('SUCCEEDED'),
      filesFailed: count('FAILED'),
    };
  }

  return {
    /**
     * Settles `day` and hands back only counts, so the run's history does not grow with the
     * day's settlements; the files are then built in batches (`buildSettlementBatch`).
     */
    async openSettlementDay({ day }: { day: string }): Promise<OpenedSettlementDay> {
      const { openedAt, unassigned } = await settle(day);
      const settlements = await db.settlement.count({ where: { ...ofRun(day), files: { some: { status: 'PROCESSING' } } } });
      return { day, since: openedAt.toISOString(), settlements, unassignedLines: unassigned.reduce((sum, group) => sum + group.lines, 0) };
    },

    /**
     * Builds the PROCESSING files of the batch's settlements, a few at a time. A file whose books
     * no longer add up is FAILED at once (BOOKS_CHANGED); any other failure fails the attempt
     * after the rest of the batch is built, so the retry builds only what is still PROCESSING.
     */
    async buildSettlementBatch(input: SettlementBatchInput): Promise<SettlementBatchResult> {
      const batch = await batchOf(input);
      const files = batch.flatMap((settlement) => settlement.files.map(({ type }) => ({ settlementId: settlement.id, type: type as SettlementFileType })));
      const failures: unknown[] = [];
      await forEachConcurrently(files, async (file) => {
        try {
          await buildFile(file.settlementId, file.type);
        } catch (error) {
          if (error instanceof ApplicationFailure && error.nonRetryable) await failFile(file.settlementId, file.type, failureReason(error));
          else failures.push(error);
        }
        heartbeat();
      });
      if (failures.length > 0) {
        const first = failureReason(failures[0]);
        throw ApplicationFailure.retryable(`${failures.length} of ${files.length} settlement files failed; first: ${first}`, 'SETTLEMENT_FILES_FAILED');
      }
      return outcomeOf(batch, input);
    },

    /** The batch failed every attempt: its files still PROCESSING become FAILED with the reason, kept for operators (not served). */
    async failSettlementBatch(input: SettlementBatchInput & { reason: string }): Promise<SettlementBatchResult> {
      const batch = await batchOf(input);
      for (const settlement of batch) {
        for (const { type } of settlement.files) await failFile(settlement.id, type as SettlementFileType, input.reason);
      }
      return outcomeOf(batch, input);
    },

    /**
     * Runs started before batches (docs/settlements.md, "Runs started before batches") replay
     * their recorded commands: the day with every settlement's pending files in one answer.
     */
    async settleDay({ day }: { day: string }): Promise<SettleDayResult> {
      const { unassigned } = await settle(day);
      const pending = await db.settlementFile.findMany({
        where: { status: 'PROCESSING', settlement: ofRun(day) },
        select: { settlementId: true, type: true },
        orderBy: [{ settlementId: 'asc' }, { type: 'asc' }],
      });
      const settlements = new Map<string, SettlementFileType[]>();
      for (const file of pending) settlements.set(file.settlementId, [...(settlements.get(file.settlementId) ?? []), file.type as SettlementFileType]);
      return { day, settlements: [...settlements].map(([settlementId, files]) => ({ settlementId, files })), unassigned };
    },

    /** One file, for runs started before batches. */
    async buildSettlementFile({ settlementId, type }: { settlementId: string; type: SettlementFileType }): Promise<{ bytes: number }> {
      return buildFile(settlementId, type);
    },

    /** The file could not be built, for runs started before batches: FAILED with the reason. */
    async failSettlementFile({ settlementId, type, reason }: { settlementId: string; type: SettlementFileType; reason: string }): Promise<void> {
      await failFile(settlementId, type, reason);
    },
  };
}
