import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { newId } from '../domain/ids';
import { exactNumber } from '../domain/payments';
import { addDays, isDay, startOfDay, utcDayOf } from '../domain/settlement-dates';
import { SETTLEMENT_FILE_TYPES, settlementFileKey, type SettlementFileStatus, type SettlementFileType } from '../domain/settlement-files';
import type { Database } from '../prisma/client';
import { bookLines, bookTotals } from './settlement-books';
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
import { fileStorageFromEnv } from './storage/config';
import type { FileStorage } from './storage/file-storage';

export interface SettleDayResult {
  day: string;
  /** Settlements of the day with the files still to build. */
  settlements: Array<{ settlementId: string; files: SettlementFileType[] }>;
  /** Provider lines of the day no legal entity receives: left out, see docs/settlements.md. */
  unassigned: Array<{ provider: string; currency: string; lines: number }>;
}

export interface SettlementActivityDependencies {
  db: Database;
  storage?: FileStorage;
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

  return {
    /**
     * Settles every provider's lines of `day` per legal entity and currency, in one transaction.
     * A settlement is written once (unique per provider, legal entity, currency and date): a rerun
     * finds it and only hands back its files that did not succeed, FAILED ones reset to PROCESSING.
     */
    async settleDay({ day }: { day: string }): Promise<SettleDayResult> {
      if (!isDay(day)) throw ApplicationFailure.nonRetryable(`Not a day (YYYY-MM-DD): ${day}`, 'INVALID_DAY');
      const totals = await bookTotals(db, { from: startOfDay(day), to: startOfDay(addDays(day, 1)) });
      const unassigned = totals
        .filter((total) => total.legalEntityId === null)
        .map((total) => ({ provider: total.provider, currency: total.currency, lines: total.lines }));
      for (const group of unassigned) {
        log.warn('Provider lines with no legal entity left out of settlement', { day, ...group });
      }
      const assigned = totals.filter((total) => total.legalEntityId !== null && total.accountId !== null);
      if (assigned.length === 0) return { day, settlements: [], unassigned };
      const settlementDate = startOfDay(addDays(day, 1));
      const period = startOfDay(day);
      const settlements = await db.$transaction(async (tx) => {
        const now = new Date();
        await tx.settlement.createMany({
          data: assigned.map((total) => ({
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
        const rows = await tx.settlement.findMany({
          where: { settlementDate, OR: assigned.map((total) => ({ provider: total.provider, legalEntityId: total.legalEntityId!, currency: total.currency })) },
          select: { id: true },
          orderBy: { id: 'asc' },
        });
        const ids = rows.map((row) => row.id);
        await tx.settlementFile.createMany({
          data: ids.flatMap((settlementId) =>
            SETTLEMENT_FILE_TYPES.map((type) => ({ id: newId('settlementFile'), settlementId, type, status: 'PROCESSING', createdAt: now, updatedAt: now })),
          ),
          skipDuplicates: true,
        });
        const failed = await tx.settlementFile.findMany({ where: { settlementId: { in: ids }, status: 'FAILED' }, select: { settlementId: true } });
        if (failed.length > 0) {
          const retried = [...new Set(failed.map((file) => file.settlementId))];
          await tx.settlementFile.updateMany({
            where: { settlementId: { in: retried }, status: 'FAILED' },
            data: { status: 'PROCESSING', failureReason: null, updatedAt: now },
          });
          await tx.settlement.updateMany({ where: { id: { in: retried } }, data: { updatedAt: now } });
        }
        const pending = await tx.settlementFile.findMany({
          where: { settlementId: { in: ids }, status: 'PROCESSING' },
          select: { settlementId: true, type: true },
          orderBy: [{ settlementId: 'asc' }, { type: 'asc' }],
        });
        return ids
          .map((settlementId) => ({
            settlementId,
            files: pending.filter((file) => file.settlementId === settlementId).map((file) => file.type as SettlementFileType),
          }))
          .filter((settlement) => settlement.files.length > 0);
      });
      return { day, settlements, unassigned };
    },

    /**
     * Writes one file from the provider's books and marks it SUCCEEDED. The lines are read again
     * and must add up to the settlement, else the file fails for good (BOOKS_CHANGED) rather than
     * disagree with it. Rebuilding writes the same bytes to the same key.
     */
    async buildSettlementFile({ settlementId, type }: { settlementId: string; type: SettlementFileType }): Promise<{ bytes: number }> {
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
      const lines = bookLines(db, {
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
    },

    /** The file could not be built: FAILED with the reason, kept for operators (not served). */
    async failSettlementFile({ settlementId, type, reason }: { settlementId: string; type: SettlementFileType; reason: string }): Promise<void> {
      await markFile(settlementId, type, 'PROCESSING', { status: 'FAILED', failureReason: reason.slice(0, 2_000) });
    },
  };
}
