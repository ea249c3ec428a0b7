import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import type { SubscriptionRow } from './subscription-row';

type Db = Prisma.TransactionClient;

type Line = SubscriptionRow['lineItems'][number];

/** A line as JSON gives it: date-times as text, the tax rate as text (kept exact). */
type JsonLine = Omit<Line, 'startedAt' | 'periodStartAt' | 'periodEndAt' | 'billedAt' | 'createdAt' | 'updatedAt' | 'taxRate'> & {
  startedAt: string | null;
  periodStartAt: string;
  periodEndAt: string | null;
  billedAt: string | null;
  createdAt: string;
  updatedAt: string;
  taxRate: string | null;
};

/**
 * `subscriptionSelect` as one statement: Prisma reads the lines with a second query, so every
 * subscription read was two round trips, and a workflow's save three (issue 13). The columns are
 * named as Prisma names them; test/subscriptions/read-row.test.ts holds the two readings equal.
 */
const readSql = (where: string) => `
  SELECT s.id, s.account_id AS "accountId", s.channel_id AS "channelId", s.customer_id AS "customerId", s.status, s.currency,
         s.payment_instrument_id AS "paymentInstrumentId", s.collection_method AS "collectionMethod",
         s.latest_invoice_id AS "latestInvoiceId", s.description, s.merchant_reference AS "merchantReference", s.metadata,
         s.discounts, s.trial_info AS "trialInfo", s.cancellation_info AS "cancellationInfo", s.settings,
         s.start_scheduled_at AS "startScheduledAt", s.started_at AS "startedAt", s.next_billing_at AS "nextBillingAt",
         s.anchor_at AS "anchorAt", s.ends_at AS "endsAt", s.cycle_count AS "cycleCount", s.version,
         s.created_at AS "createdAt", s.updated_at AS "updatedAt",
         coalesce((SELECT json_agg(json_build_object(
                     'id', l.id, 'subscriptionId', l.subscription_id, 'position', l.position, 'productId', l.product_id,
                     'productPriceId', l.product_price_id, 'productName', l.product_name, 'productDescription', l.product_description,
                     'billingType', l.billing_type, 'currency', l.currency, 'amount', l.amount, 'quantity', l.quantity,
                     'startedAt', l.started_at, 'periodStartAt', l.period_start_at, 'periodEndAt', l.period_end_at,
                     'billingPeriodValue', l.billing_period_value, 'billingPeriodUnit', l.billing_period_unit,
                     'taxCategoryId', l.tax_category_id, 'taxMode', l.tax_mode, 'taxRate', l.tax_rate::text,
                     'billedAt', l.billed_at, 'createdAt', l.created_at, 'updatedAt', l.updated_at) ORDER BY l.position)
                   FROM subscription_line_items l WHERE l.subscription_id = s.id), '[]'::json) AS "lineItems"
  FROM subscriptions s WHERE ${where}`;

const byIdSql = sqlStatement('subscriptions.find', readSql('s.id = $1'));
const byAccountSql = sqlStatement('subscriptions.find_in_account', readSql('s.id = $1 AND s.account_id = $2'));

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function rowOf(read: Omit<SubscriptionRow, 'lineItems'> & { lineItems: JsonLine[] }): SubscriptionRow {
  return {
    ...read,
    lineItems: read.lineItems.map((line) => ({
      ...line,
      startedAt: dateOrNull(line.startedAt),
      periodStartAt: new Date(line.periodStartAt),
      periodEndAt: dateOrNull(line.periodEndAt),
      billedAt: dateOrNull(line.billedAt),
      createdAt: new Date(line.createdAt),
      updatedAt: new Date(line.updatedAt),
      taxRate: line.taxRate === null ? null : new Prisma.Decimal(line.taxRate),
    })),
  };
}

/** The subscription `id` with its lines in order, in one statement; null if there is none (of `accountId`, when given). */
export async function readSubscriptionRow(db: Database | Db, id: string, accountId?: string): Promise<SubscriptionRow | null> {
  const [read] = await (accountId === undefined
    ? readRows<Omit<SubscriptionRow, 'lineItems'> & { lineItems: JsonLine[] }>(db, byIdSql, [id])
    : readRows<Omit<SubscriptionRow, 'lineItems'> & { lineItems: JsonLine[] }>(db, byAccountSql, [id, accountId]));
  return read ? rowOf(read) : null;
}
