import type Stripe from 'stripe';
import { newId } from '../../domain/ids';
import { inChunks } from '../../domain/settlement-batches';
import { startOfDay } from '../../domain/settlement-dates';
import { SETTLEMENT_FILE_TYPES } from '../../domain/settlement-files';
import { checkTransaction, compareLines, payoutFigures, payoutLine, PayoutDoesNotAddUp, type PayoutFigures, type PayoutLine } from '../../domain/stripe-payout-lines';
import { payoutLegalEntity, reconcileLine, type OurPayment, type OurRefund, type ReconciledLine } from '../../domain/stripe-payout-reconciliation';
import { leavesWindow, payoutReadiness, payoutSettlementDay, STRIPE_PROVIDER, type PayoutFacts } from '../../domain/stripe-payouts';
import type { Database } from '../../prisma/client';
import { payoutsArriving, payoutTransactions } from './stripe-payout-reader';

/**
 * Settles an account's Stripe payouts (docs/settlements.md, "Settlements from Stripe"): each
 * payout of the run's window that is paid and reconciled, and not settled yet, becomes one
 * settlement of its legal entity and currency, with its lines (reconciled against our payments
 * and refunds) and its two files PROCESSING, in one transaction. The files are then built by the
 * settlement run like every other's.
 */

/** Lines reconciled at once: one query for their payments, one for their refunds. */
const RECONCILE_PAGE = 100;

export interface AccountPayouts {
  /** Settlements made now. */
  settled: Array<{ payoutId: string; settlementId: string; lines: number }>;
  /** Ready payouts no one legal entity receives: left for a later run (docs/settlements.md). */
  unassigned: Array<{ payoutId: string; currency: string; lines: number; reason: 'NONE' | 'SEVERAL' }>;
  /** Ready payouts whose transactions do not come to the payout: never settled on a guess. */
  notAddingUp: Array<{ payoutId: string; message: string }>;
  /** Payouts requested by hand: Stripe does not list what they paid out. */
  manual: string[];
  /** Payouts still not paid and reconciled, which no later run will look at again. */
  lastLook: string[];
}

export interface StripePayoutDependencies {
  db: Database;
  now?: () => Date;
  /** Called after each page of transactions read: the activity's heartbeat. */
  progress?: () => void;
}

export async function settleAccountPayouts(
  { db, now = () => new Date(), progress }: StripePayoutDependencies,
  connection: { accountId: string; client: Stripe },
  day: string,
): Promise<AccountPayouts> {
  const { accountId, client } = connection;
  const result: AccountPayouts = { settled: [], unassigned: [], notAddingUp: [], manual: [], lastLook: [] };
  const payouts: PayoutFacts[] = [];
  for await (const payout of payoutsArriving(client, day)) payouts.push(payout);
  const settledBefore = await alreadySettled(db, accountId, payouts);
  const onlyLegalEntity = await onlyLegalEntityOf(db, accountId);
  for (const payout of payouts) {
    if (settledBefore.has(payout.id)) continue;
    const readiness = payoutReadiness(payout);
    if (readiness === 'MANUAL') result.manual.push(payout.id);
    if (readiness === 'NOT_YET' && leavesWindow(payout, day)) result.lastLook.push(payout.id);
    if (readiness !== 'READY') continue;
    let lines: ReconciledLine[];
    let figures: PayoutFigures;
    try {
      lines = await readLines(db, client, accountId, payout, onlyLegalEntity, progress);
      figures = payoutFigures(payout, lines);
    } catch (error) {
      if (!(error instanceof PayoutDoesNotAddUp)) throw error;
      result.notAddingUp.push({ payoutId: payout.id, message: error.message });
      continue;
    }
    const attribution = payoutLegalEntity(lines, onlyLegalEntity);
    if (attribution.legalEntityId === null) {
      result.unassigned.push({ payoutId: payout.id, currency: figures.currency, lines: lines.length, reason: attribution.reason });
      continue;
    }
    const settlementId = await recordSettlement(db, { accountId, legalEntityId: attribution.legalEntityId, payout, figures, lines: lines.sort(compareLines), now: now() });
    if (settlementId) result.settled.push({ payoutId: payout.id, settlementId, lines: lines.length });
  }
  return result;
}

async function alreadySettled(db: Database, accountId: string, payouts: readonly PayoutFacts[]): Promise<Set<string>> {
  const rows = await db.settlement.findMany({
    where: { accountId, provider: STRIPE_PROVIDER, providerSettlementId: { in: payouts.map((payout) => payout.id) } },
    select: { providerSettlementId: true },
  });
  return new Set(rows.map((row) => row.providerSettlementId!));
}

/** The account's legal entity when it has exactly one (docs/settlements.md, "Legal entities"). */
async function onlyLegalEntityOf(db: Database, accountId: string): Promise<string | null> {
  const entities = await db.legalEntity.findMany({ where: { accountId }, select: { id: true }, take: 2 });
  return entities.length === 1 ? entities[0]!.id : null;
}

/** The payout's lines, every transaction checked, reconciled a page at a time. */
async function readLines(
  db: Database,
  client: Stripe,
  accountId: string,
  payout: PayoutFacts,
  onlyLegalEntity: string | null,
  progress: (() => void) | undefined,
): Promise<ReconciledLine[]> {
  const lines: ReconciledLine[] = [];
  let page: PayoutLine[] = [];
  const flush = async () => {
    lines.push(...(await reconciled(db, accountId, page, onlyLegalEntity)));
    page = [];
    progress?.();
  };
  for await (const transaction of payoutTransactions(client, payout.id)) {
    checkTransaction(payout, transaction);
    const line = payoutLine(payout, transaction);
    if (line) page.push(line);
    if (page.length >= RECONCILE_PAGE) await flush();
  }
  if (page.length > 0) await flush();
  return lines;
}

/** Our payments by the PaymentIntent they record, our refunds by Stripe's Refund id, of this account only. */
async function reconciled(db: Database, accountId: string, lines: readonly PayoutLine[], onlyLegalEntity: string | null): Promise<ReconciledLine[]> {
  const intents = [...new Set(lines.flatMap((line) => (line.providerChargeId ? [line.providerChargeId] : [])))];
  const refundIds = [...new Set(lines.filter((line) => line.kind === 'REFUND').map((line) => line.providerReference))];
  const payments = intents.length
    ? await db.payment.findMany({
        where: { accountId, provider: STRIPE_PROVIDER, providerChargeId: { in: intents } },
        select: { id: true, invoiceId: true, channelId: true, status: true, amount: true, currency: true, fee: true, providerChargeId: true },
        orderBy: { id: 'asc' },
      })
    : [];
  const channels = payments.length
    ? await db.channel.findMany({ where: { id: { in: [...new Set(payments.map((payment) => payment.channelId))] } }, select: { id: true, legalEntityId: true } })
    : [];
  const refunds = refundIds.length
    ? await db.refund.findMany({
        where: { accountId, provider: STRIPE_PROVIDER, providerRefundId: { in: refundIds } },
        select: { id: true, paymentId: true, amount: true, status: true, providerRefundId: true },
        orderBy: { id: 'asc' },
      })
    : [];
  const legalEntityOf = new Map(channels.map((channel) => [channel.id, channel.legalEntityId]));
  const paymentOf = new Map<string, OurPayment>();
  for (const { providerChargeId, ...payment } of payments) {
    if (!paymentOf.has(providerChargeId!)) paymentOf.set(providerChargeId!, { ...payment, channelLegalEntityId: legalEntityOf.get(payment.channelId) ?? null });
  }
  const refundOf = new Map<string, OurRefund>();
  for (const { providerRefundId, ...refund } of refunds) if (!refundOf.has(providerRefundId!)) refundOf.set(providerRefundId!, refund);
  return lines.map((line) =>
    reconcileLine(
      line,
      {
        payment: line.providerChargeId ? paymentOf.get(line.providerChargeId) : undefined,
        refund: line.kind === 'REFUND' ? refundOf.get(line.providerReference) : undefined,
      },
      onlyLegalEntity,
    ),
  );
}

/**
 * The settlement, its lines and its PROCESSING files in one transaction. Unique per account,
 * provider and payout: a run racing this one, or a retry, finds it made and writes nothing.
 */
async function recordSettlement(
  db: Database,
  s: { accountId: string; legalEntityId: string; payout: PayoutFacts; figures: PayoutFigures; lines: readonly ReconciledLine[]; now: Date },
): Promise<string | null> {
  const { figures, now } = s;
  return db.$transaction(
    async (tx) => {
      const id = newId('settlement');
      const { count } = await tx.settlement.createMany({
        data: [
          {
            id,
            accountId: s.accountId,
            legalEntityId: s.legalEntityId,
            provider: STRIPE_PROVIDER,
            providerSettlementId: s.payout.id,
            currency: figures.currency,
            amount: figures.amount,
            grossAmount: figures.grossAmount,
            refundedAmount: figures.refundedAmount,
            feeAmount: figures.feeAmount,
            adjustmentAmount: figures.adjustmentAmount,
            settlementDate: startOfDay(payoutSettlementDay(s.payout)),
            periodFrom: startOfDay(figures.periodFrom),
            periodTo: startOfDay(figures.periodTo),
            createdAt: now,
            updatedAt: now,
          },
        ],
        skipDuplicates: true,
      });
      if (count === 0) return null;
      const rows = s.lines.map((line, position) => ({
        settlementId: id,
        position,
        kind: line.kind,
        providerTransactionId: line.providerTransactionId,
        providerReference: line.providerReference,
        providerChargeId: line.providerChargeId,
        transactedAt: line.transactedAt,
        currency: line.currency,
        grossAmount: line.grossAmount,
        refundedAmount: line.refundedAmount,
        feeAmount: line.feeAmount,
        adjustmentAmount: line.adjustmentAmount,
        paymentId: line.paymentId,
        refundId: line.refundId,
        invoiceId: line.invoiceId,
        channelId: line.channelId,
        reconciliation: line.reconciliation,
      }));
      for (const chunk of inChunks(rows)) await tx.settlementLine.createMany({ data: chunk });
      await tx.settlementFile.createMany({
        data: SETTLEMENT_FILE_TYPES.map((type) => ({ id: newId('settlementFile'), settlementId: id, type, status: 'PROCESSING', createdAt: now, updatedAt: now })),
      });
      return id;
    },
    { timeout: 120_000 },
  );
}
