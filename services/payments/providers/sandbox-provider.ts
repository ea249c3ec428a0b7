import { divideHalfUp } from '../../../domain/rounding';
import type { SandboxScenario } from '../../../domain/cards';
import { newId } from '../../../domain/ids';
import type { Database } from '../../../prisma/client';
import { sqlStatement, writeRows } from '../../../prisma/statements';
import {
  ProviderRequestMismatch,
  type ChargeOutcome,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type ProcessedCharge,
  type RefundingProvider,
  type RefundRequest,
  type RefundResult,
} from './provider';

export type SandboxOutcome = Exclude<ChargeOutcome, 'REQUIRES_ACTION' | 'PROCESSING'>;

/** A fee of `basisPoints` / 10,000 of the amount plus `fixed`, all in minor units. */
export interface FeeSchedule {
  basisPoints: number;
  fixed: number;
}

export interface SandboxProfile {
  name: string;
  fee: FeeSchedule;
  /** How this provider treats each test scenario: the sandbox never asks for action nor processes late. */
  outcomeOf(scenario: SandboxScenario): SandboxOutcome;
}

const DECLINES = {
  HARD_DECLINED: { declineCode: 'do_not_honor', message: 'The card issuer declined the charge (do not honor).' },
  SOFT_DECLINED: { declineCode: 'insufficient_funds', message: 'Insufficient funds; the charge may succeed later.' },
} as const;

/**
 * The percentage part rounded half up, in integer arithmetic: BigInt because money never goes
 * through floating point, even where a double would happen to be exact.
 */
export function feeFor(amount: number, fee: FeeSchedule): number {
  const percentage = divideHalfUp(BigInt(amount) * BigInt(fee.basisPoints), 10_000n);
  return Number(percentage) + fee.fixed;
}

/**
 * A sandbox provider keeping its books in `sandbox_provider_charges`, as a real provider keeps
 * its own: charges and declines are recorded under (provider, idempotency key), so a repeated
 * request gets the recorded answer. UNAVAILABLE and TIMEOUT record nothing: the provider did not
 * process the request, so `lookup` finds nothing and a later request with the key is decided anew.
 */
export function sandboxProvider(db: Database, profile: SandboxProfile): PaymentProvider & RefundingProvider {
  const booked = (idempotencyKey: string) =>
    db.sandboxProviderCharge.findUnique({ where: { provider_idempotencyKey: { provider: profile.name, idempotencyKey } } });

  async function lookup(idempotencyKey: string): Promise<ProcessedCharge | null> {
    const row = await booked(idempotencyKey);
    return row ? resultOf(row) : null;
  }

  return {
    name: profile.name,
    lookup,
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      // Another provider's card (a Stripe PaymentMethod) is no token of the sandbox: it cannot
      // reach it, as a real acquirer cannot charge another's token, and the cascade moves on.
      if (request.card.sandboxScenario === null) return { outcome: 'UNAVAILABLE' };
      const outcome = profile.outcomeOf(request.card.sandboxScenario);
      // A recorded answer under the key wins over whatever the scenario would say now.
      if (outcome === 'UNAVAILABLE' || outcome === 'TIMEOUT') {
        const recorded = await booked(request.idempotencyKey);
        return recorded ? replayed(recorded, request) : { outcome };
      }
      // Concurrent requests under one key race on the unique key; the loser (or a repeated
      // request) reads the row recorded first.
      const [created] = await writeRows<ChargeRow>(db, insertCharge, [
        newId('sandboxCharge'),
        profile.name,
        request.idempotencyKey,
        request.amount,
        request.currency,
        outcome === 'APPROVED' ? feeFor(request.amount, profile.fee) : 0,
        outcome,
        outcome === 'APPROVED' ? null : DECLINES[outcome].declineCode,
        new Date(),
      ]);
      return replayed(created ?? (await booked(request.idempotencyKey))!, request);
    },

    /**
     * Refunds are kept in `sandbox_provider_refunds` under (provider, idempotency key), like
     * charges. The charge's row is locked while its refunds are summed, so concurrent refunds of
     * one charge cannot together exceed it. The fee stays with the provider.
     */
    async refund(request: RefundRequest): Promise<RefundResult> {
      const byKey = { provider_idempotencyKey: { provider: profile.name, idempotencyKey: request.idempotencyKey } };
      const recorded = await db.sandboxProviderRefund.findUnique({ where: byKey });
      if (recorded) return replayedRefund(recorded, request);
      return db.$transaction(async (tx) => {
        const [charge] = await tx.$queryRaw<Array<{ amount: number; outcome: string }>>`
          SELECT amount, outcome FROM sandbox_provider_charges
          WHERE id = ${request.providerChargeId} AND provider = ${profile.name} FOR UPDATE`;
        // Under the charge's lock: a concurrent request with this key has committed by now.
        const raced = await tx.sandboxProviderRefund.findUnique({ where: byKey });
        if (raced) return replayedRefund(raced, request);
        if (!charge || charge.outcome !== 'APPROVED') {
          return { outcome: 'REJECTED', code: 'charge_not_found', message: `${profile.name} holds no approved charge ${request.providerChargeId}.` };
        }
        const refunded = await tx.sandboxProviderRefund.aggregate({ where: { provider: profile.name, chargeId: request.providerChargeId }, _sum: { amount: true } });
        const left = charge.amount - (refunded._sum.amount ?? 0);
        if (request.amount > left) {
          return {
            outcome: 'REJECTED',
            code: 'refund_exceeds_charge',
            message: `${profile.name}: charge ${request.providerChargeId} has ${left} left to refund, ${request.amount} asked.`,
          };
        }
        const row = await tx.sandboxProviderRefund.create({
          data: {
            id: newId('sandboxRefund'),
            provider: profile.name,
            chargeId: request.providerChargeId,
            idempotencyKey: request.idempotencyKey,
            amount: request.amount,
            createdAt: new Date(),
          },
        });
        return { outcome: 'REFUNDED', providerRefundId: row.id };
      });
    },
  };

  function replayedRefund(row: { id: string; chargeId: string; amount: number }, request: RefundRequest): RefundResult {
    if (row.chargeId !== request.providerChargeId || row.amount !== request.amount) {
      throw new ProviderRequestMismatch(profile.name, request.idempotencyKey, 'refund');
    }
    return { outcome: 'REFUNDED', providerRefundId: row.id };
  }

  function replayed(row: ChargeRow, request: ChargeRequest): ProcessedCharge {
    if (row.amount !== request.amount || row.currency !== request.currency) {
      throw new ProviderRequestMismatch(profile.name, request.idempotencyKey);
    }
    return resultOf(row);
  }
}

/**
 * The charge booked under its key, or nothing when the key holds one already. It was the last
 * statement of a renewal and of invoices/pay that Prisma built: in a profile of the worker renewing
 * 200 subscriptions, Prisma's query compiler took 412 ms of its main thread's 10.8 s (issue 13).
 */
const insertCharge = sqlStatement(
  'sandbox_provider.insert_charge',
  `INSERT INTO sandbox_provider_charges (id, provider, idempotency_key, amount, currency, fee, outcome, decline_code, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
   ON CONFLICT (provider, idempotency_key) DO NOTHING
   RETURNING id, amount, currency, fee, outcome`,
);

interface ChargeRow {
  id: string;
  amount: number;
  currency: string;
  fee: number;
  outcome: string;
}

function resultOf(row: ChargeRow): ProcessedCharge {
  if (row.outcome === 'APPROVED') return { outcome: 'APPROVED', providerChargeId: row.id, fee: row.fee };
  const outcome = row.outcome as keyof typeof DECLINES;
  return { outcome, providerChargeId: row.id, ...DECLINES[outcome] };
}
