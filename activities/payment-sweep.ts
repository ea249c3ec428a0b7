import { Context, heartbeat, log } from '@temporalio/activity';
import type { ActivityDependencies } from '.';
import { abandonedPayClaims, finishClaimedCharge, type CollectDependencies } from '../services/payments/collect';
import type { Settlement } from '../services/payments/settle';
import { signalInvoicePaid } from '../services/payments/paid-signals';
import { abandonedRefunds, finishRefund } from '../services/payments/refunds';
import { createChargeActivities } from './charge';
import type { ProviderRegistry } from './providers/registry';

export interface PaymentSweepInput {
  /** Pay claims and, separately, refunds finished per call, at most. */
  limit: number;
}

export interface PaymentSweepResult {
  /** Abandoned pay claims finished (settled by this sweep or found settled). */
  charges: number;
  /** Abandoned refunds finished. */
  refunds: number;
  /** Items that threw: logged, left for the next sweep. */
  failed: number;
  /** A batch came back full and none failed: more may be waiting now. */
  more: boolean;
}

export function createPaymentSweepActivities(deps: ActivityDependencies & { providers?: ProviderRegistry }) {
  const { db } = deps;
  const collect: CollectDependencies = { db, charge: createChargeActivities(deps).chargePayment, now: () => new Date() };

  return {
    /**
     * Finishes money movements whose request died (docs/invoice-payments.md, "The payment
     * sweeper"): manual pay claims past their lease are charged under their own key (the charge
     * path returns or resumes the payment already made, so nobody is charged twice) and settled
     * exactly as invoices/pay settles; refunds left PENDING past their lease are asked of the
     * provider under their own key and recorded SUCCEEDED or FAILED. Each item settles once
     * however often it is swept: only the holder of the guard, or of the PENDING refund, writes.
     */
    async sweepAbandonedPayments({ limit }: PaymentSweepInput): Promise<PaymentSweepResult> {
      const now = new Date();
      const claims = await abandonedPayClaims(db, now, limit);
      const refundIds = await abandonedRefunds(db, now, { take: limit });
      const result: PaymentSweepResult = { charges: 0, refunds: 0, failed: 0, more: false };
      for (const { invoiceId, claim } of claims) {
        heartbeat(result);
        let settlement: Settlement;
        try {
          settlement = await finishClaimedCharge(
            collect,
            { invoiceId, key: claim.key, instrumentId: claim.instrumentId, origin: { kind: 'pay' } },
            (work) => db.$transaction(work),
          );
          result.charges++;
        } catch (error) {
          result.failed++;
          log.warn('Abandoned invoice charge not finished; the next sweep retries it', { invoiceId, error: String(error) });
          continue;
        }
        // The settlement is committed: a signal that cannot be sent is logged, not retried (a
        // dunning still ends at its next attempt, which re-reads the invoice).
        if (settlement.applied) {
          await signalInvoicePaid(Context.current().client, settlement.invoice).catch((error: unknown) =>
            log.warn('Invoice paid by the sweep; signal not sent', { invoiceId, error: String(error) }),
          );
        }
      }
      for (const refundId of refundIds) {
        heartbeat(result);
        try {
          await finishRefund(db, refundId, (work) => db.$transaction(work), () => new Date());
          result.refunds++;
        } catch (error) {
          result.failed++;
          log.warn('Abandoned refund not finished; the next sweep retries it', { refundId, error: String(error) });
        }
      }
      result.more = result.failed === 0 && (claims.length === limit || refundIds.length === limit);
      return result;
    },
  };
}
