import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

type Db = Prisma.TransactionClient;
type InstrumentRow = Prisma.PaymentInstrumentGetPayload<object>;

/** The customer's default instrument (`configuration.default_payment_instrument_id`), if any. */
export function defaultInstrumentOf(customer: { configuration: unknown }): string | undefined {
  return (customer.configuration as { default_payment_instrument_id?: string } | null)?.default_payment_instrument_id;
}

/**
 * Which instrument gets charged: the one named (by the invoice, the subscription, the request),
 * else the customer's default; undefined when there is neither.
 */
export function chargedInstrumentId(named: string | null | undefined, customer: { configuration: unknown }): string | undefined {
  return named ?? defaultInstrumentOf(customer);
}

/**
 * Every column as Prisma names it (the row is an InstrumentRow): charging and finalizing read it
 * on every call (test/payment-instruments/instrument-row.test.ts holds it equal to Prisma's).
 */
const instrumentSql = sqlStatement(
  'payment_instruments.chargeable',
  `SELECT id, account_id AS "accountId", channel_id AS "channelId", customer_id AS "customerId", type, brand, last4,
          exp_month AS "expMonth", exp_year AS "expYear", cardholder_name AS "cardholderName", fingerprint,
          sandbox_scenario AS "sandboxScenario", provider, provider_reference AS "providerReference",
          provider_customer_reference AS "providerCustomerReference", status, revoked_at AS "revokedAt", expired_at AS "expiredAt",
          created_at AS "createdAt", updated_at AS "updatedAt"
   FROM payment_instruments WHERE id = $1 AND account_id = $2`,
);

/** Whether an instrument may be charged for a customer; each caller words the refusal its own operation documents. */
export type InstrumentVerdict =
  | { chargeable: true; instrument: InstrumentRow }
  /** Unknown in the account, another customer's, or in a channel the caller cannot see. */
  | { chargeable: false; reason: 'NOT_FOUND' }
  | { chargeable: false; reason: 'NOT_ACTIVE'; status: string; instrument: InstrumentRow };

/**
 * The one rule "the instrument is this customer's and ACTIVE" (docs/payment-instruments.md). An
 * instrument the caller cannot see (`visible` says no for its channel) is answered as absent.
 */
export async function chargeableInstrument(
  db: Database | Db,
  subject: { accountId: string; customerId: string; instrumentId: string; visible?: (channelId: string) => boolean },
): Promise<InstrumentVerdict> {
  const [instrument] = await readRows<InstrumentRow>(db, instrumentSql, [subject.instrumentId, subject.accountId]);
  if (!instrument || instrument.customerId !== subject.customerId || (subject.visible && !subject.visible(instrument.channelId))) {
    return { chargeable: false, reason: 'NOT_FOUND' };
  }
  if (instrument.status !== 'ACTIVE') return { chargeable: false, reason: 'NOT_ACTIVE', status: instrument.status, instrument };
  return { chargeable: true, instrument };
}
