import type { ChargeInput, ChargeSummary, FinishedCharge, OpenedPayment } from './charge';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { collectionInstrumentOf } from '../../domain/collection-instrument';
import { defaultInstrumentOf } from '../payment-instruments/chargeable-instrument';
import { paymentByKey } from './payment-rows';
import { parsePayChargeKey, payClaimAbandoned, type PayChargeKey } from './charge-keys';
import { NO_INSTRUMENT, settleCharge, type ChargeEnd, type ChargeOrigin, type Settlement } from './settle';

type Db = Prisma.TransactionClient;

const instrumentStatus = sqlStatement('payments.instrument_status', 'SELECT status FROM payment_instruments WHERE id = $1');
const customerConfiguration = sqlStatement('payments.customer_configuration', 'SELECT configuration FROM customers WHERE id = $1');

export interface CollectDependencies {
  db: Database;
  /** `chargePayment` of activities/charge.ts. */
  charge: (input: ChargeInput) => Promise<ChargeSummary>;
  now: () => Date;
}

/** What a claimed charge collects: read with the claim, or from the invoice when finishing someone else's. */
export interface ChargeTerms {
  accountId: string;
  customerId: string;
  amountDue: number;
  currency: string;
}

/** Runs `work` in one transaction: the pay operation hands in the one that also stores its idempotency record. */
export type TransactionRunner = <T>(work: (tx: Db) => Promise<T>) => Promise<T>;

/**
 * Writes that must commit with the settlement they follow, or not at all: a renewal's paid step
 * (services/subscriptions/renew-period.ts). Run only when this call applied the settlement.
 */
export type SettlementFollowUp = (tx: Db, settlement: Settlement) => Promise<void>;

/**
 * Finishes a charge whose key is (or was) held in `invoices.payment_in_progress_id`: charges
 * under that key, which returns the recorded payment, resumes a PENDING one or creates it, then
 * settles the invoice. Safe to run any number of times, concurrently too: the charge path
 * charges once per key and the settlement applies once per claim.
 *
 * `opened`: the payment was created with the claim, in its transaction (invoices/pay): it is
 * driven from there, and its final answer is recorded in the settlement's transaction.
 */
export async function finishClaimedCharge(
  deps: CollectDependencies,
  claim: { invoiceId: string; key: string; instrumentId: string | undefined; origin: ChargeOrigin; terms?: ChargeTerms; opened?: OpenedPayment },
  transaction: TransactionRunner,
  followUp?: SettlementFollowUp,
): Promise<Settlement> {
  const invoice =
    claim.terms ??
    (await deps.db.invoice.findUniqueOrThrow({
      where: { id: claim.invoiceId },
      select: { accountId: true, customerId: true, amountDue: true, currency: true },
    }));
  // The amount due cannot change while the claim is held: only settling a charge changes it.
  const charged = (instrumentId: string) =>
    deps.charge({
      accountId: invoice.accountId,
      customerId: invoice.customerId,
      instrumentId,
      amount: invoice.amountDue,
      currency: invoice.currency,
      idempotencyKey: claim.key,
      invoiceId: claim.invoiceId,
      reference: claim.invoiceId,
    });
  const settle = async (tx: Db, charge: ChargeEnd) => {
    const settlement = await settleCharge(tx, {
      invoiceId: claim.invoiceId,
      key: claim.key,
      amount: invoice.amountDue,
      charge,
      origin: claim.origin,
      instrumentId: claim.instrumentId,
      now: deps.now(),
    });
    if (settlement.applied && followUp) await followUp(tx, settlement);
    return settlement;
  };
  if (!claim.opened) {
    const charge = claim.instrumentId ? await charged(claim.instrumentId) : NO_INSTRUMENT;
    return transaction((tx) => settle(tx, charge));
  }
  const finished = await claim.opened.drive();
  try {
    return await transaction(async (tx) => {
      // After the settlement's invoice lock: the invoice's row is locked first everywhere.
      const settlement = await settle(tx, finished.summary);
      if (finished.recordIn && !(await finished.recordIn(tx))) throw new ClaimTakenOver();
      return settlement;
    });
  } catch (error) {
    if (!(error instanceof ClaimTakenOver)) {
      await recordedAlone(finished);
      throw error;
    }
    // The payment's claim outlived its lease and another run took it over: its answer is the one that run records.
    const taken = await charged(claim.instrumentId!);
    return transaction((tx) => settle(tx, taken));
  }
}

/** The settlement's transaction rolled back because the payment's answer could no longer be recorded under this run's claim. */
class ClaimTakenOver extends Error {
  constructor() {
    super("The payment's claim was taken over before its answer was recorded.");
  }
}

/** Best effort: a record that fails too leaves the payment to the run that takes it over after its lease. */
async function recordedAlone(finished: FinishedCharge): Promise<void> {
  await finished.recordAlone?.().catch(() => undefined);
}

/**
 * Manual pays abandoned past their lease, oldest claim first (the ULID after `/pay/` is the
 * claim's time, so it sorts in byte order), at most `take`. Collection claims are not among
 * them: Temporal retries their attempt until it finishes.
 */
export async function abandonedPayClaims(db: Database, now: Date, take: number): Promise<Array<{ invoiceId: string; claim: PayChargeKey }>> {
  const rows = await db.$queryRaw<Array<{ id: string; key: string }>>`
    SELECT id, payment_in_progress_id AS key FROM invoices
    WHERE payment_in_progress_id IS NOT NULL AND payment_in_progress_id LIKE '%/pay/%'
    ORDER BY split_part(payment_in_progress_id, '/', 3) COLLATE "C"
    LIMIT ${take}`;
  const abandoned: Array<{ invoiceId: string; claim: PayChargeKey }> = [];
  for (const row of rows) {
    const claim = parsePayChargeKey(row.key);
    if (!claim) continue;
    if (!payClaimAbandoned(claim, now)) break;
    abandoned.push({ invoiceId: row.id, claim });
  }
  return abandoned;
}

/**
 * The instrument an automatic attempt charges, chosen at each attempt so a merchant can fix a
 * failing collection between retries: the one a payment under this key already used (a resumed
 * attempt keeps its instrument), else the invoice's own instrument while ACTIVE, else the
 * customer's default, else the invoice's inactive one (the charge path declines it, saying why).
 */
export async function collectionInstrument(
  db: Db,
  invoice: { accountId: string; customerId: string; paymentInstrumentId: string | null },
  key: string,
): Promise<string | undefined> {
  const started = await paymentByKey(db, invoice.accountId, key);
  if (started) return started.instrumentId;
  return chosenInstrument(db, invoice);
}

/**
 * collectionInstrument for an attempt no payment can have started yet: the first of an invoice
 * finalized in the caller's uncommitted transaction (a payment under its key is only ever made
 * after the claim commits).
 */
export async function chosenInstrument(db: Db, invoice: { customerId: string; paymentInstrumentId: string | null }): Promise<string | undefined> {
  let named: { id: string; status: string } | null = null;
  if (invoice.paymentInstrumentId) {
    const [own] = await readRows<{ status: string }>(db, instrumentStatus, [invoice.paymentInstrumentId]);
    if (own?.status === 'ACTIVE') return invoice.paymentInstrumentId;
    named = { id: invoice.paymentInstrumentId, status: own?.status ?? 'MISSING' };
  }
  const [customer] = await readRows<{ configuration: unknown }>(db, customerConfiguration, [invoice.customerId]);
  return collectionInstrumentOf(named, customer ? defaultInstrumentOf(customer) : undefined);
}
