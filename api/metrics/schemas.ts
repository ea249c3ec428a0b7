import { z } from 'zod';
import { CURRENCY_CODES } from '../../domain/currencies';
import { formatDateTime } from '../../domain/datetime';
import { MAX_PERIOD_DAYS, MAX_PERIOD_MS, type Period } from '../../domain/metrics/periods';
import { SUBSCRIPTION_STATUSES } from '../../domain/subscription-status';
import type { CurrencySource } from '../../services/metrics/main-currency';
import { dateTime } from '../common/schemas';

const currency = z.enum(CURRENCY_CODES).meta({
  description: 'Default: the account’s main currency, the one of the largest sum of SUCCEEDED payments in the last 90 days (ties: alphabetical), else EUR.',
});

const period = z
  .strictObject({
    from: dateTime.meta({ description: 'Inclusive.' }),
    to: dateTime.meta({ description: `Exclusive; after \`from\`, at most ${MAX_PERIOD_DAYS} days after it.` }),
  })
  .superRefine((range, ctx) => {
    const span = Date.parse(range.to) - Date.parse(range.from);
    const issue = (type: string, message: string) => ctx.addIssue({ code: 'custom', path: ['to'], message, params: { type } });
    if (span <= 0) issue('INVALID', 'Must be later than `from`.');
    else if (span > MAX_PERIOD_MS) issue('MAX', `At most ${MAX_PERIOD_DAYS} days after \`from\`.`);
  })
  .meta({ description: 'The half-open interval `[from, to)`, read to the millisecond. Default: this calendar month in UTC.' });

export const periodRequest = z.strictObject({ period: period.optional(), currency: currency.optional() });
export const currencyRequest = z.strictObject({ currency: currency.optional() });

/** The request's period in epoch milliseconds, when it gives one. */
export function periodOf(request: z.output<typeof periodRequest>): Period | undefined {
  return request.period ? { from: Date.parse(request.period.from), to: Date.parse(request.period.to) } : undefined;
}

const amount = z.number().int().meta({ description: 'Minor units.' });
const count = z.number().int().min(0);
const pair = <T extends z.ZodType>(figure: T) => z.object({ current: figure, previous: figure });
const periodObject = z.object({ from: z.string(), to: z.string() });

const currencyFields = {
  currency: z.string(),
  currency_source: z.enum(['REQUEST', 'MAIN_CURRENCY', 'DEFAULT']).meta({ description: 'Why this currency: asked for, the account’s main currency, or EUR for want of payments.' }),
};

export const serializePeriod = (value: Period) => ({ from: formatDateTime(new Date(value.from)), to: formatDateTime(new Date(value.to)) });

export const currencyOf = (value: { currency: string; source: CurrencySource }) => ({ currency: value.currency, currency_source: value.source });

const creditNoteFigures = z.object({
  total: amount,
  pre_payment: amount.meta({ description: 'Lowered an amount due; never collected.' }),
  refund: amount.meta({ description: 'Paid back by a refund, already in `refunds`.' }),
  balance_credit: amount.meta({ description: 'Credited to the customer’s balance.' }),
  out_of_band: amount.meta({ description: 'Given back outside the platform.' }),
});

const failedPayments = z.object({
  failed: count,
  succeeded: count,
  rate: z.string().nullable().meta({ description: 'failed ÷ (failed + succeeded), four decimal places, half up; null when both are 0.' }),
});

export const overviewObject = z.object({
  ...currencyFields,
  period: periodObject,
  previous_period: periodObject,
  as_of: z.string(),
  gross_volume: pair(amount).meta({ description: 'SUCCEEDED payments created in the period.' }),
  refunds: pair(amount).meta({ description: 'SUCCEEDED refunds created in the period.' }),
  credit_notes: pair(creditNoteFigures).meta({ description: 'ISSUED credit notes created in the period, split as they gave the money back.' }),
  net_revenue: pair(amount).meta({ description: 'gross_volume − refunds − credit_notes.balance_credit − credit_notes.out_of_band.' }),
  mrr: pair(amount).meta({ description: 'At the period’s end (now if later), and at its start.' }),
  arr: pair(amount).meta({ description: '12 × mrr.' }),
  subscriptions: z.object({ new: pair(count), churned: pair(count), reactivated: pair(count) }),
  dunning: z.object({ invoice_count: count, amount_due: amount }).meta({ description: 'Invoices in DUNNING now.' }),
  failed_payments: pair(failedPayments),
  top_decline_codes: z.array(z.object({ decline_code: z.string(), count })).meta({ description: 'The period’s five most frequent decline codes.' }),
});

export const dailyRevenueObject = z.object({
  ...currencyFields,
  period: periodObject,
  days: z.array(z.object({ date: z.string().meta({ description: 'A UTC calendar day, YYYY-MM-DD.' }), collected: amount, refunded: amount })),
});

export const mrrHistoryObject = z.object({
  ...currencyFields,
  points: z.array(z.object({ month: z.string().meta({ description: 'YYYY-MM.' }), at: z.string(), mrr: amount, arr: amount })),
});

export const subscriptionCountsObject = z.object({
  ...currencyFields,
  as_of: z.string(),
  counts: z.object(Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, count])) as Record<(typeof SUBSCRIPTION_STATUSES)[number], typeof count>),
});
