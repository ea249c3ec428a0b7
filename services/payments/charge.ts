import { ulid } from 'ulid';
import { ApiError } from '../../domain/errors';
import { endOfExpiryMonth, type SandboxScenario } from '../../domain/cards';
import { isCurrencyCode } from '../../domain/currencies';
import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import { isWaitingPayment, MAX_AMOUNT, type PaymentStatus } from '../../domain/payments';
import { selectRoute, type RouteTree } from '../../domain/routing';
import type { Database, Prisma } from '../../prisma/client';
import { findChargedCustomer } from '../customers/repository';
import { chargeableInstrument, type InstrumentVerdict } from '../payment-instruments/chargeable-instrument';
import { publishedRouteTree } from '../routing-configs/published-route-tree';
import { screenPayment } from './antifraud-screen';
import { claimPayment, insertPayment, paymentById, paymentByKey, recordPaymentStep, type PaymentRow } from './payment-rows';
import type { ChargeOutcome, ChargeResult, PaymentProvider, ProviderCard } from './providers/provider';
import { createProviderRegistry, type ProviderRegistry } from './providers/registry';
import { AUTHENTICATION_REQUIRED, providerKeyOf, refreshWaitingPayment, waitingFinal } from './waiting-payments';

export interface ChargeInput {
  accountId: string;
  customerId: string;
  instrumentId: string;
  /** Positive, in minor units of `currency`. */
  amount: number;
  currency: string;
  /** One payment per key and account: a repeated call returns or resumes that payment. */
  idempotencyKey: string;
  ipAddress?: string;
  reference?: string;
  /** The invoice the payment collects: refunds and dunning find its payments by it. */
  invoiceId?: string;
}

/** What a caller (workflow, API) learns of a finished payment; plain JSON. */
export interface ChargeSummary {
  paymentId: string;
  /** REQUIRES_ACTION and AWAITING_PROVIDER end the call but not the payment: the provider decides later. */
  status: Exclude<PaymentStatus, 'PENDING' | 'PROCESSING'>;
  /** Where the customer authenticates, while REQUIRES_ACTION. */
  nextActionUrl?: string;
  declineCode?: string;
  declineMessage?: string;
  /** Whether charging again later (with a new idempotency key) may succeed. */
  retryable: boolean;
  provider?: string;
  providerChargeId?: string;
  fee?: number;
}

/** One entry of `payments.attempts` per provider asked. */
export interface Attempt {
  provider: string;
  outcome: ChargeOutcome;
  code?: string;
  provider_charge_id?: string;
  /** The provider timed out and `outcome` is what its books said afterwards. */
  timed_out?: true;
  at: string;
}

export interface ChargeDependencies {
  db: Database;
  /** The sandbox registry unless given; tests hand in wrappers that fail or count. */
  providers?: ProviderRegistry;
  now?: () => Date;
}

type Final = Omit<ChargeSummary, 'paymentId'>;

function refuse(message: string, code: string): never {
  throw new ApiError(code, message);
}

/**
 * docs/payments.md. Safe to retry at any point: it never charges twice. A request that can never
 * be charged (its amount, currency or key, an unknown customer, a key reused for another
 * payment) is refused with an ApiError; a charge the providers refuse is a DECLINED summary.
 */
export async function chargePayment(deps: ChargeDependencies, input: ChargeInput): Promise<ChargeSummary> {
  const { db } = deps;
  const providers = deps.providers ?? createProviderRegistry(db);
  const now = deps.now ?? (() => new Date());
  refuseUnchargeable(input);

  // Read together: a repeated key needs none of the others, a new one needs all of them.
  const [existing, customer, verdict] = await Promise.all([
    paymentByKey(db, input.accountId, input.idempotencyKey),
    findChargedCustomer(db, input.accountId, input.customerId),
    chargeableInstrument(db, { accountId: input.accountId, customerId: input.customerId, instrumentId: input.instrumentId }),
  ]);
  if (existing) {
    const payment = sameRequest(existing, input);
    // A payment waiting for its provider is brought up to date: the next caller asks the provider.
    if (isWaitingPayment(payment.status)) return summaryOf(await refreshWaitingPayment(db, providers, now, payment));
    return settle(db, providers, now, payment);
  }
  if (!customer) refuse(`Customer ${input.customerId} does not exist in account ${input.accountId}.`, 'CUSTOMER_NOT_FOUND');
  const { created, claimed } = await newPayment(db, now, input, customer, verdict);
  if (!created) return settle(db, providers, now, sameRequest((await paymentByKey(db, input.accountId, input.idempotencyKey))!, input));
  return claimed ? (await drive(db, providers, now, claimed, false)).summary : summaryOf(created);
}

/**
 * A charge driven up to its final answer but not yet recorded: `recordIn` writes it in the
 * caller's settlement transaction, false when this run's claim was taken over meanwhile (that
 * transaction must then roll back); `recordAlone` commits it on its own, for when that
 * transaction fails, so that a retry finds the payment final instead of waiting out its lease.
 * Without them the payment was final already (an opening decline).
 */
export interface FinishedCharge {
  summary: ChargeSummary;
  recordIn?: (tx: Prisma.TransactionClient) => Promise<boolean>;
  recordAlone?: () => Promise<void>;
}

/** A payment created in a transaction that has yet to commit, to be driven once it has. */
export interface OpenedPayment {
  drive(): Promise<FinishedCharge>;
}

/**
 * chargePayment's first half in the caller's transaction, for a key minted in it (invoices/pay's
 * claim, under the invoice's lock): the checks, the route and the payment created PROCESSING under
 * this run's claim commit with the caller's claim, before any provider is asked, in one
 * transaction where the charge path alone commits each statement. `drive` then asks the
 * providers once that transaction has committed and leaves the final answer to the settlement's
 * transaction. A `verdict` the caller read in `tx` is not read again.
 */
export async function openPayment(deps: ChargeDependencies, tx: Prisma.TransactionClient, input: ChargeInput, verdict?: InstrumentVerdict): Promise<OpenedPayment> {
  const providers = deps.providers ?? createProviderRegistry(deps.db);
  const now = deps.now ?? (() => new Date());
  refuseUnchargeable(input);
  const customer = await findChargedCustomer(tx, input.accountId, input.customerId);
  if (!customer) refuse(`Customer ${input.customerId} does not exist in account ${input.accountId}.`, 'CUSTOMER_NOT_FOUND');
  verdict ??= await chargeableInstrument(tx, { accountId: input.accountId, customerId: input.customerId, instrumentId: input.instrumentId });
  const { created, claimed } = await newPayment(tx, now, input, customer, verdict);
  if (!created) throw new Error(`A payment under the key ${input.idempotencyKey}, minted in this very transaction, exists already.`);
  return { drive: async () => (claimed ? drive(deps.db, providers, now, claimed, true) : { summary: summaryOf(created) }) };
}

function refuseUnchargeable(input: ChargeInput): void {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || input.amount > MAX_AMOUNT) {
    refuse(`The amount must be a positive integer of minor units up to ${MAX_AMOUNT}; got ${input.amount}.`, 'INVALID_AMOUNT');
  }
  if (!isCurrencyCode(input.currency)) refuse(`${input.currency} is not an ISO 4217 currency code.`, 'INVALID_CURRENCY');
  if (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 255) {
    refuse('The idempotency key must be 1 to 255 characters.', 'INVALID_IDEMPOTENCY_KEY');
  }
}

type ChargedCustomer = { channelId: string; email: string; address: Prisma.JsonValue | null };

/**
 * The payment of a new key: declined at once by an opening check, or created claimed by this run
 * (PROCESSING under its attempt key, `claimed`), committed before any provider is asked. A
 * concurrent call with the same key races on the unique key; the loser (`created` undefined) goes
 * on with the winner's row, waiting for its run.
 */
async function newPayment(
  db: Database | Prisma.TransactionClient,
  now: () => Date,
  input: ChargeInput,
  customer: ChargedCustomer,
  verdict: InstrumentVerdict,
): Promise<{ created?: PaymentRow; claimed?: Claimed }> {
  const instrument = verdict.chargeable || verdict.reason === 'NOT_ACTIVE' ? verdict.instrument : undefined;
  const channelId = instrument?.channelId ?? customer.channelId;
  const [opening, tree] = await Promise.all([openingDecision(db, now(), input, customer, verdict), publishedRouteTree(db, input.accountId, channelId)]);

  const at = now();
  const attemptKey = newAttemptKey(at);
  const created = await insertPayment(db, {
    id: newId('payment', at.getTime()),
    accountId: input.accountId,
    channelId,
    customerId: input.customerId,
    instrumentId: input.instrumentId,
    invoiceId: input.invoiceId ?? null,
    idempotencyKey: input.idempotencyKey,
    amount: input.amount,
    currency: input.currency,
    status: opening?.status ?? 'PROCESSING',
    declineCode: opening?.declineCode ?? null,
    declineMessage: opening?.declineMessage ?? null,
    reference: input.reference ?? null,
    attemptKey: opening ? null : attemptKey,
    claimedAt: opening ? null : at,
    at,
  });
  if (!created || opening || !verdict.chargeable) return { created };
  return { created, claimed: { payment: created, attemptKey, resumed: false, subject: { instrument: verdict.instrument, address: customer.address, tree } } };
}

function sameRequest(payment: PaymentRow, input: ChargeInput): PaymentRow {
  const same =
    payment.customerId === input.customerId &&
    payment.instrumentId === input.instrumentId &&
    payment.amount === input.amount &&
    payment.currency === input.currency;
  if (!same) {
    refuse(`Idempotency key ${input.idempotencyKey} belongs to payment ${payment.id}, made with another customer, instrument, amount or currency.`, 'IDEMPOTENCY_KEY_REUSED');
  }
  return payment;
}

/**
 * The checks made once, when the payment is created: a payment left PENDING has passed them, so
 * resuming it after a crash never turns a charge a provider may already hold into a decline.
 * Returns the decline, or undefined to go on to the providers.
 */
async function openingDecision(
  db: Database | Prisma.TransactionClient,
  now: Date,
  input: ChargeInput,
  customer: { email: string },
  verdict: InstrumentVerdict,
): Promise<Final | undefined> {
  const decline = (declineCode: string, declineMessage: string): Final => ({ status: 'DECLINED', declineCode, declineMessage, retryable: false });
  if (!verdict.chargeable && verdict.reason === 'NOT_FOUND') {
    return decline('instrument_not_found', `Payment instrument ${input.instrumentId} is not one of customer ${input.customerId}.`);
  }
  if (!verdict.chargeable) {
    return decline('instrument_not_active', `Payment instrument ${input.instrumentId} is ${verdict.status}, not ACTIVE.`);
  }
  const { instrument } = verdict;
  if (now >= endOfExpiryMonth(instrument.expMonth, instrument.expYear)) {
    return decline('instrument_expired', `Payment instrument ${instrument.id} expired at the end of ${instrument.expMonth}/${instrument.expYear}.`);
  }
  const screening = await screenPayment(
    db,
    {
      accountId: input.accountId,
      ipAddress: input.ipAddress,
      customerEmail: customer.email,
      customerId: input.customerId,
      cardholder: instrument.cardholderName ?? undefined,
      instrumentId: instrument.id,
      fingerprint: instrument.fingerprint,
    },
    now,
  );
  if (screening.outcome === 'BLOCKED') {
    return decline(
      'antifraud_blocked',
      `Blocked by antifraud list ${screening.listId}: its item ${screening.itemId} matches the payment's ${screening.field}.`,
    );
  }
  return undefined;
}

/**
 * How long a run's claim on a payment holds without news from it: every provider of a cascade
 * answers well within it, and a run refreshes it with each answer it records. A claim older than
 * this belongs to a run that died (or hangs) between asking a provider and recording the answer.
 */
export const PAYMENT_CLAIM_LEASE_MS = 120_000;
const WAIT_POLL_MS = 25;

/** A payment claimed by this run under `attemptKey`: only this run records provider answers on it. */
interface Claimed {
  payment: PaymentRow;
  attemptKey: string;
  /** Someone may have asked a provider for this payment before: ask its books before charging. */
  resumed: boolean;
  /** Known when this run created the payment: nothing to read again. */
  subject?: Subject;
}

type InstrumentRow = Awaited<ReturnType<Database['paymentInstrument']['findUniqueOrThrow']>>;

/** What routing and the providers need of a payment besides the row itself. */
interface Subject {
  instrument: InstrumentRow;
  address: Prisma.JsonValue | null;
  tree: RouteTree;
}

/** Finished for the charge path: final, or waiting for its provider (services/payments/waiting-payments.ts). */
function isFinal(payment: PaymentRow): boolean {
  return payment.status !== 'PENDING' && payment.status !== 'PROCESSING';
}

/**
 * Drives a payment to a final status (docs/payments.md, "Claims"). No transaction and no lock is
 * held while a provider is asked: the claim is the committed row itself. A payment another run
 * holds is waited for and its result returned; one whose claim outlived its lease is taken over.
 */
async function settle(db: Database, providers: ProviderRegistry, now: () => Date, payment: PaymentRow): Promise<ChargeSummary> {
  for (;;) {
    if (isFinal(payment)) return summaryOf(payment);
    const claimed = await claim(db, now(), payment.id);
    if (claimed) return (await drive(db, providers, now, { payment: claimed, attemptKey: claimed.attemptKey!, resumed: true }, false)).summary;
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    payment = await paymentById(db, payment.id);
  }
}

/** One statement, committed: the payment is this run's if nobody holds it or its holder's lease ran out. */
function claim(db: Database, at: Date, paymentId: string): Promise<PaymentRow | undefined> {
  return claimPayment(db, paymentId, newAttemptKey(at), at, new Date(at.getTime() - PAYMENT_CLAIM_LEASE_MS));
}

function newAttemptKey(at: Date): string {
  return ulid(at.getTime());
}

/**
 * Asks providers in route order from where the payment stands, recording each answer before the
 * next provider is asked, each record conditioned on this run still holding the claim. A run
 * that lost its claim (it outlived its lease and was taken over) records nothing and waits for
 * the run that took it. A run that fails hands its claim back, so a retry resumes at once.
 * `leaveFinal`: the final answer (but REQUIRES_ACTION) is returned to be recorded in the caller's
 * settlement transaction (FinishedCharge) instead of on its own; no provider is asked after it.
 */
async function drive(db: Database, providers: ProviderRegistry, now: () => Date, claimed: Claimed, leaveFinal: boolean): Promise<FinishedCharge> {
  let payment = claimed.payment;
  try {
    const { instrument, address, tree } = claimed.subject ?? (await subjectOf(db, payment));
    const route = selectRoute(tree, {
      currency: payment.currency,
      amount: payment.amount,
      cardBrand: instrument.brand,
      customerCountry: countryOf(address),
    });
    // A stored tree is validated against the registry when written; a provider removed since is skipped.
    const cascade = route.providers.map((name) => providers.get(name)).filter((p): p is PaymentProvider => p !== undefined);
    const card: ProviderCard = {
      instrumentId: instrument.id,
      brand: instrument.brand,
      sandboxScenario: instrument.sandboxScenario as SandboxScenario | null,
      provider: instrument.provider,
      providerReference: instrument.providerReference,
      providerCustomerReference: instrument.providerCustomerReference,
    };

    let resumed = claimed.resumed;
    while (payment.status === 'PROCESSING') {
      const attempts = payment.attempts as unknown as Attempt[];
      // One attempt per provider: its key is deterministic, so asking again only repeats its answer.
      const asked = new Set(attempts.map((a) => a.provider));
      const next = cascade.find((p) => !asked.has(p.name));
      const step = next ? await ask(next, payment, card, now, resumed) : { final: exhausted(attempts, cascade.length === 0) };
      resumed = false;
      // A payment left waiting for its customer is committed before the settlement releases the
      // invoice: a pay queued on that settlement's lock reads the invoice's waiting payments from
      // its statement's snapshot (lockVisibleInvoiceToCharge), and must find this one to withdraw it.
      if (leaveFinal && step.final && step.final.status !== 'REQUIRES_ACTION') return finalLeftToRecord(db, now, payment, claimed.attemptKey, step, step.final);
      const recorded = await record(db, now, payment, claimed.attemptKey, step);
      if (!recorded) return { summary: await settle(db, providers, now, await paymentById(db, payment.id)) };
      payment = recorded;
    }
    return { summary: summaryOf(payment) };
  } catch (error) {
    // Best effort: a claim that cannot be handed back now frees itself when its lease runs out.
    await db.payment
      .updateMany({
        where: { id: payment.id, status: 'PROCESSING', attemptKey: claimed.attemptKey },
        data: { status: 'PENDING', attemptKey: null, claimedAt: null },
      })
      .catch(() => undefined);
    throw error;
  }
}

/** Read again on resume: the route in effect now applies to the providers not yet asked. */
async function subjectOf(db: Database, payment: PaymentRow): Promise<Subject> {
  const [instrument, customer, tree] = await Promise.all([
    db.paymentInstrument.findUniqueOrThrow({ where: { id: payment.instrumentId } }),
    db.customer.findUniqueOrThrow({ where: { id: payment.customerId }, select: { address: true } }),
    publishedRouteTree(db, payment.accountId, payment.channelId),
  ]);
  return { instrument, address: customer.address, tree };
}

interface Step {
  attempt?: Attempt;
  final?: Final;
}

async function ask(provider: PaymentProvider, payment: PaymentRow, card: ProviderCard, now: () => Date, resumed: boolean): Promise<Step> {
  const idempotencyKey = providerKeyOf(payment.id, provider.name);
  // A run that died after asking may have been answered: the provider's books say so by key, and
  // a provider that holds nothing under the key never processed it, so charging is safe.
  const booked = resumed ? await provider.lookup(idempotencyKey, payment.accountId) : null;
  let result: ChargeResult =
    booked ??
    (await provider.charge({
      idempotencyKey,
      accountId: payment.accountId,
      amount: payment.amount,
      currency: payment.currency,
      card,
      paymentId: payment.id,
      invoiceId: payment.invoiceId,
    }));
  const timedOut = result.outcome === 'TIMEOUT';
  // The request may have been processed even though no answer came back: the books tell.
  if (timedOut) result = (await provider.lookup(idempotencyKey, payment.accountId)) ?? result;

  const attempt: Attempt = {
    provider: provider.name,
    outcome: result.outcome,
    ...(timedOut ? { timed_out: true as const } : {}),
    ...codeOf(result),
    ...('providerChargeId' in result ? { provider_charge_id: result.providerChargeId } : {}),
    at: formatDateTime(now()),
  };
  switch (result.outcome) {
    case 'APPROVED':
      return {
        attempt,
        final: { status: 'SUCCEEDED', retryable: false, provider: provider.name, providerChargeId: result.providerChargeId, fee: result.fee },
      };
    case 'HARD_DECLINED':
      return {
        attempt,
        final: {
          status: 'DECLINED',
          declineCode: result.declineCode,
          declineMessage: `${provider.name}: ${result.message}`,
          retryable: false,
          provider: provider.name,
          providerChargeId: result.providerChargeId,
        },
      };
    case 'REQUIRES_ACTION':
    case 'PROCESSING':
      // The provider holds the charge now: no other provider may be asked for this payment.
      return { attempt, final: { ...waitingFinal(result), provider: provider.name, providerChargeId: result.providerChargeId } };
    default:
      return { attempt };
  }
}

function codeOf(result: ChargeResult): { code?: string } {
  switch (result.outcome) {
    case 'HARD_DECLINED':
    case 'SOFT_DECLINED':
      return { code: result.declineCode };
    case 'REQUIRES_ACTION':
      return { code: AUTHENTICATION_REQUIRED };
    case 'PROCESSING':
      return { code: 'processing' };
    case 'UNAVAILABLE':
      return { code: 'provider_unavailable' };
    case 'TIMEOUT':
      return { code: 'provider_timeout' };
    default:
      return {};
  }
}

/** Every provider of the route was asked and none charged nor refused for good. */
function exhausted(attempts: Attempt[], noRoute: boolean): Final {
  if (noRoute) {
    return {
      status: 'DECLINED',
      declineCode: 'route_not_found',
      declineMessage: 'No route of the routing configuration accepts this payment (currency, amount, card brand or country).',
      retryable: false,
    };
  }
  const softDecline = [...attempts].reverse().find((a) => a.outcome === 'SOFT_DECLINED');
  if (softDecline) {
    return {
      status: 'DECLINED',
      declineCode: softDecline.code,
      declineMessage: `Every provider declined or could not be reached; ${softDecline.provider} declined with ${softDecline.code}.`,
      retryable: true,
    };
  }
  return {
    status: 'FAILED',
    declineCode: 'providers_unavailable',
    declineMessage: `No provider could process the payment: ${attempts.map((a) => `${a.provider} ${a.outcome}`).join(', ')}.`,
    retryable: true,
  };
}

function finalLeftToRecord(db: Database, now: () => Date, payment: PaymentRow, attemptKey: string, step: Step, final: Final): FinishedCharge {
  // As summaryOf reads the row once recorded: absent fields are not there at all.
  const present = Object.entries(final).filter(([, value]) => value !== undefined && value !== null);
  return {
    summary: { paymentId: payment.id, ...(Object.fromEntries(present) as Final) },
    recordIn: async (tx) => (await record(tx, now, payment, attemptKey, step)) !== undefined,
    recordAlone: async () => {
      await record(db, now, payment, attemptKey, step);
    },
  };
}

/** Records one step, only while `attemptKey` still holds the payment: one short statement, committed with `db`'s transaction if it is one. */
async function record(db: Database | Prisma.TransactionClient, now: () => Date, payment: PaymentRow, attemptKey: string, step: Step): Promise<PaymentRow | undefined> {
  const attempts = payment.attempts as unknown as Attempt[];
  const final = step.final;
  return recordPaymentStep(
    db,
    { id: payment.id, attemptKey },
    now(),
    step.attempt ? [...attempts, step.attempt] : undefined,
    final
      ? {
          status: final.status,
          declineCode: final.declineCode ?? null,
          declineMessage: final.declineMessage ?? null,
          retryable: final.retryable,
          provider: final.provider ?? null,
          providerChargeId: final.providerChargeId ?? null,
          fee: final.fee ?? null,
          nextActionUrl: final.nextActionUrl ?? null,
        }
      : undefined,
  );
}

function countryOf(address: Prisma.JsonValue | null): string | undefined {
  const country = address && typeof address === 'object' && !Array.isArray(address) ? address.country : undefined;
  return typeof country === 'string' ? country : undefined;
}

export function summaryOf(payment: PaymentRow): ChargeSummary {
  return {
    paymentId: payment.id,
    status: payment.status as ChargeSummary['status'],
    ...(payment.declineCode !== null ? { declineCode: payment.declineCode } : {}),
    ...(payment.declineMessage !== null ? { declineMessage: payment.declineMessage } : {}),
    retryable: payment.retryable,
    ...(payment.provider !== null ? { provider: payment.provider } : {}),
    ...(payment.providerChargeId !== null ? { providerChargeId: payment.providerChargeId } : {}),
    ...(payment.fee !== null ? { fee: payment.fee } : {}),
    ...(payment.nextActionUrl !== null ? { nextActionUrl: payment.nextActionUrl } : {}),
  };
}
