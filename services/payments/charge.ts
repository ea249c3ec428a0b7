import { ApiError } from '../../domain/errors';
import { endOfExpiryMonth, type SandboxScenario } from '../../domain/cards';
import { isCurrencyCode } from '../../domain/currencies';
import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import { MAX_AMOUNT, type PaymentStatus } from '../../domain/payments';
import { DEFAULT_PROVIDERS, selectRoute, type RouteTree } from '../../domain/routing';
import type { Database, Prisma } from '../../prisma/client';
import { chargeableInstrument, type InstrumentVerdict } from '../payment-instruments/chargeable-instrument';
import { screenPayment } from './antifraud-screen';
import { chargeSlots } from './charge-slots';
import type { ChargeOutcome, ChargeResult, PaymentProvider, ProviderCard } from './providers/provider';
import { createProviderRegistry, type ProviderRegistry } from './providers/registry';

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
  status: Exclude<PaymentStatus, 'PENDING'>;
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

type PaymentRow = Awaited<ReturnType<Database['payment']['findUniqueOrThrow']>>;

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
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || input.amount > MAX_AMOUNT) {
    refuse(`The amount must be a positive integer of minor units up to ${MAX_AMOUNT}; got ${input.amount}.`, 'INVALID_AMOUNT');
  }
  if (!isCurrencyCode(input.currency)) refuse(`${input.currency} is not an ISO 4217 currency code.`, 'INVALID_CURRENCY');
  if (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 255) {
    refuse('The idempotency key must be 1 to 255 characters.', 'INVALID_IDEMPOTENCY_KEY');
  }

  const byKey = { accountId_idempotencyKey: { accountId: input.accountId, idempotencyKey: input.idempotencyKey } };
  const existing = await db.payment.findUnique({ where: byKey });
  if (existing) return settle(db, providers, now, sameRequest(existing, input));

  const customer = await db.customer.findFirst({ where: { id: input.customerId, accountId: input.accountId } });
  if (!customer) refuse(`Customer ${input.customerId} does not exist in account ${input.accountId}.`, 'CUSTOMER_NOT_FOUND');
  const verdict = await chargeableInstrument(db, { accountId: input.accountId, customerId: input.customerId, instrumentId: input.instrumentId });
  const instrument = verdict.chargeable || verdict.reason === 'NOT_ACTIVE' ? verdict.instrument : undefined;
  const opening = await openingDecision(db, now(), input, customer, verdict);

  const at = now();
  // A concurrent call with the same key races on the unique key; both go on with the winner's row.
  await db.payment.createMany({
    data: [
      {
        id: newId('payment', at.getTime()),
        accountId: input.accountId,
        channelId: instrument?.channelId ?? customer.channelId,
        customerId: input.customerId,
        instrumentId: input.instrumentId,
        invoiceId: input.invoiceId ?? null,
        idempotencyKey: input.idempotencyKey,
        amount: input.amount,
        currency: input.currency,
        status: opening?.status ?? 'PENDING',
        declineCode: opening?.declineCode ?? null,
        declineMessage: opening?.declineMessage ?? null,
        retryable: false,
        attempts: [],
        reference: input.reference ?? null,
        createdAt: at,
        updatedAt: at,
      },
    ],
    skipDuplicates: true,
  });
  return settle(db, providers, now, sameRequest(await db.payment.findUniqueOrThrow({ where: byKey }), input));
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
  db: Database,
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

/** How long one run may hold a payment: every provider of a cascade answers well within it. */
const CHARGE_LOCK_TIMEOUT_MS = 120_000;
const LOCK_POLL_MS = 25;
/** Advisory locks of payments live apart from any other lock the platform takes. */
const PAYMENT_LOCK_SPACE = 7270;

/**
 * Drives a payment to a final status. One run at a time per payment: concurrent calls with one
 * key wait for the run holding the payment's advisory lock and then return its result, so each
 * provider is asked once. The lock is a transaction-scoped one, released if the process dies.
 */
async function settle(db: Database, providers: ProviderRegistry, now: () => Date, payment: PaymentRow): Promise<ChargeSummary> {
  return payment.status === 'PENDING' ? chargeSlots(db).run(() => settleOnce(db, providers, now, payment)) : summaryOf(payment);
}

async function settleOnce(db: Database, providers: ProviderRegistry, now: () => Date, payment: PaymentRow): Promise<ChargeSummary> {
  for (;;) {
    if (payment.status !== 'PENDING') return summaryOf(payment);
    const finished = await db.$transaction(
      async (tx) => {
        const [lock] = await tx.$queryRaw<Array<{ locked: boolean }>>`
          SELECT pg_try_advisory_xact_lock(${PAYMENT_LOCK_SPACE}::int, hashtext(${payment.id})) AS locked`;
        return lock?.locked ? run(db, providers, now, payment.id) : undefined;
      },
      { timeout: CHARGE_LOCK_TIMEOUT_MS },
    );
    if (finished) return summaryOf(finished);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    payment = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
  }
}

/** Asks providers in route order from where the payment stands, persisting each step before the next. */
async function run(db: Database, providers: ProviderRegistry, now: () => Date, paymentId: string): Promise<PaymentRow> {
  let payment = await db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  if (payment.status !== 'PENDING') return payment;
  const [instrument, customer] = await Promise.all([
    db.paymentInstrument.findUniqueOrThrow({ where: { id: payment.instrumentId } }),
    db.customer.findUniqueOrThrow({ where: { id: payment.customerId }, select: { address: true } }),
  ]);
  const tree = await publishedRouteTree(db, payment.accountId, payment.channelId);
  const route = selectRoute(tree, {
    currency: payment.currency,
    amount: payment.amount,
    cardBrand: instrument.brand,
    customerCountry: countryOf(customer.address),
  });
  // A stored tree is validated against the registry when written; a provider removed since is skipped.
  const cascade = route.providers.map((name) => providers.get(name)).filter((p): p is PaymentProvider => p !== undefined);
  const card: ProviderCard = {
    instrumentId: instrument.id,
    brand: instrument.brand,
    sandboxScenario: instrument.sandboxScenario as SandboxScenario,
  };

  while (payment.status === 'PENDING') {
    const attempts = payment.attempts as unknown as Attempt[];
    // One attempt per provider: its key is deterministic, so asking again only repeats its answer.
    const asked = new Set(attempts.map((a) => a.provider));
    const next = cascade.find((p) => !asked.has(p.name));
    const step = next ? await ask(next, payment, card, now) : { final: exhausted(attempts, cascade.length === 0) };
    payment = await advance(db, now, payment, step);
  }
  return payment;
}

interface Step {
  attempt?: Attempt;
  final?: Final;
}

async function ask(provider: PaymentProvider, payment: PaymentRow, card: ProviderCard, now: () => Date): Promise<Step> {
  const idempotencyKey = `${payment.id}/${provider.name}`;
  let result: ChargeResult = await provider.charge({ idempotencyKey, amount: payment.amount, currency: payment.currency, card });
  const timedOut = result.outcome === 'TIMEOUT';
  // The request may have been processed even though no answer came back: the books tell.
  if (timedOut) result = (await provider.lookup(idempotencyKey)) ?? result;

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
    default:
      return { attempt };
  }
}

function codeOf(result: ChargeResult): { code?: string } {
  switch (result.outcome) {
    case 'HARD_DECLINED':
    case 'SOFT_DECLINED':
      return { code: result.declineCode };
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

/** Persists one step; the caller holds the payment's lock. */
async function advance(db: Database, now: () => Date, payment: PaymentRow, step: Step): Promise<PaymentRow> {
  const attempts = payment.attempts as unknown as Attempt[];
  const final = step.final;
  return db.payment.update({
    where: { id: payment.id },
    data: {
      updatedAt: now(),
      ...(step.attempt ? { attempts: [...attempts, step.attempt] as unknown as Prisma.InputJsonValue } : {}),
      ...(final
        ? {
            status: final.status,
            declineCode: final.declineCode ?? null,
            declineMessage: final.declineMessage ?? null,
            retryable: final.retryable,
            provider: final.provider ?? null,
            providerChargeId: final.providerChargeId ?? null,
            fee: final.fee ?? null,
          }
        : {}),
    },
  });
}

/**
 * The published version of the channel's configuration, else of the account-wide one, else the
 * default route. A configuration without a published version does not count.
 */
async function publishedRouteTree(db: Database, accountId: string, channelId: string): Promise<RouteTree> {
  const configs = await db.routingConfig.findMany({
    where: { accountId, OR: [{ channelId }, { channelId: null }], publishedVersionId: { not: null } },
    select: { channelId: true, publishedVersionId: true },
  });
  const chosen = configs.find((c) => c.channelId === channelId) ?? configs.find((c) => c.channelId === null);
  if (!chosen?.publishedVersionId) return { rules: [], default_providers: [...DEFAULT_PROVIDERS] };
  const version = await db.routingConfigVersion.findUniqueOrThrow({ where: { id: chosen.publishedVersionId }, select: { routeTree: true } });
  return version.routeTree as unknown as RouteTree;
}

function countryOf(address: Prisma.JsonValue | null): string | undefined {
  const country = address && typeof address === 'object' && !Array.isArray(address) ? address.country : undefined;
  return typeof country === 'string' ? country : undefined;
}

function summaryOf(payment: PaymentRow): ChargeSummary {
  return {
    paymentId: payment.id,
    status: payment.status as ChargeSummary['status'],
    ...(payment.declineCode !== null ? { declineCode: payment.declineCode } : {}),
    ...(payment.declineMessage !== null ? { declineMessage: payment.declineMessage } : {}),
    retryable: payment.retryable,
    ...(payment.provider !== null ? { provider: payment.provider } : {}),
    ...(payment.providerChargeId !== null ? { providerChargeId: payment.providerChargeId } : {}),
    ...(payment.fee !== null ? { fee: payment.fee } : {}),
  };
}
