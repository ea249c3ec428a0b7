import { heartbeat, log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import Stripe from 'stripe';
import { forEachConcurrently, isBatchLimit, MAX_RECORDS_PER_BATCH, type BatchCursor } from '../domain/settlement-batches';
import { isDay } from '../domain/settlement-dates';
import type { Database } from '../prisma/client';
import { stripeConnectionOf } from '../services/payments/providers/stripe/connection';
import { settleAccountPayouts } from '../services/settlements/stripe-payouts';

export interface StripePayoutBatchInput extends BatchCursor {
  /** The run's day: payouts arriving in its window are settled (docs/settlements.md, "Settlements from Stripe"). */
  day: string;
}

export interface StripePayoutBatchResult {
  /** The cursor of the next batch: the last account of this one, null when it held none. */
  last: string | null;
  /** No connected account comes after this batch. */
  complete: boolean;
  /** Settlements made by this batch. */
  settlements: number;
  /** Lines of ready payouts no one legal entity receives. */
  unassignedLines: number;
}

/**
 * The settlement run's reading of Stripe: the payouts of the accounts connected to Stripe, a
 * batch of accounts after a cursor, a few at a time. Stripe refusing or failing for one account
 * (a revoked key, an outage) is logged and leaves that account's payouts to the next night's run,
 * whose window still holds them; anything else fails the attempt, which is retried (accounts
 * already done find their payouts settled and write nothing).
 */
export function createStripeSettlementActivities({ db }: { db: Database }) {
  return {
    async settleStripePayouts({ day, after, limit }: StripePayoutBatchInput): Promise<StripePayoutBatchResult> {
      if (!isDay(day)) throw ApplicationFailure.nonRetryable(`Not a day (YYYY-MM-DD): ${day}`, 'INVALID_DAY');
      if (!isBatchLimit(limit)) throw ApplicationFailure.nonRetryable(`A batch holds 1 to ${MAX_RECORDS_PER_BATCH} accounts, not ${limit}.`, 'INVALID_BATCH');
      const accounts = await db.stripeConnection.findMany({
        where: after !== null ? { accountId: { gt: after } } : {},
        select: { accountId: true },
        orderBy: { accountId: 'asc' },
        take: limit,
      });
      let settlements = 0;
      let unassignedLines = 0;
      await forEachConcurrently(accounts, async ({ accountId }) => {
        const connection = await stripeConnectionOf(db, accountId);
        if (!connection) return;
        try {
          const done = await settleAccountPayouts({ db, progress: () => heartbeat() }, connection, day);
          settlements += done.settled.length;
          for (const payout of done.unassigned) {
            unassignedLines += payout.lines;
            log.warn('Stripe payout with no legal entity left out of settlement', { day, accountId, ...payout });
          }
          for (const payout of done.notAddingUp) log.error('Stripe payout not settled: its transactions do not add up to it', { day, accountId, ...payout });
          for (const payoutId of done.manual) log.warn('Manual Stripe payout not settled: Stripe lists no transactions for it', { day, accountId, payoutId });
          for (const payoutId of done.lastLook) log.warn('Stripe payout still not paid and reconciled, no longer looked at', { day, accountId, payoutId });
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeError)) throw error;
          // Type, code and status only: Stripe's messages may quote part of the key.
          log.warn('Stripe payouts not read for an account: left to the next run', { day, accountId, type: error.type, code: error.code, statusCode: error.statusCode });
        }
        heartbeat();
      });
      return { last: accounts[accounts.length - 1]?.accountId ?? null, complete: accounts.length < limit, settlements, unassignedLines };
    },
  };
}
