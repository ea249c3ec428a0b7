import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import type { BillingPeriod } from './billing-periods';
import { isCurrencyCode, minorUnitExponent } from './currencies';

/**
 * The custom search attributes every platform workflow carries, so an operator can ask the
 * Temporal UI "what is happening to customer X?" (docs/operators.md). All Keyword: matched
 * exactly, as ids and statuses are. Registered on a cluster by `npm run operator --
 * temporal-setup`, on the dev server by `npm start`.
 */
export const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const CHANNEL_ID = defineSearchAttributeKey('ChannelId', SearchAttributeType.KEYWORD);
export const CUSTOMER_ID = defineSearchAttributeKey('CustomerId', SearchAttributeType.KEYWORD);
/** The record the workflow serves: subscription, invoice, API key, webhook endpoint, report, instrument. */
export const RESOURCE_ID = defineSearchAttributeKey('ResourceId', SearchAttributeType.KEYWORD);
/** The subscription's or invoice's current status, upserted by the workflow whenever it changes it. */
export const BILLING_STATUS = defineSearchAttributeKey('BillingStatus', SearchAttributeType.KEYWORD);

export const WORKFLOW_SEARCH_ATTRIBUTE_KEYS = [ACCOUNT_ID, CHANNEL_ID, CUSTOMER_ID, RESOURCE_ID, BILLING_STATUS] as const;

/** What a workflow is about; absent fields are left unset (a platform-wide workflow has no account). */
export interface WorkflowSubject {
  resourceId: string;
  accountId?: string;
  channelId?: string | null;
  customerId?: string | null;
  billingStatus?: string;
}

export function searchAttributesOf(subject: WorkflowSubject): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [{ key: RESOURCE_ID, value: subject.resourceId }];
  if (subject.accountId) pairs.push({ key: ACCOUNT_ID, value: subject.accountId });
  if (subject.channelId) pairs.push({ key: CHANNEL_ID, value: subject.channelId });
  if (subject.customerId) pairs.push({ key: CUSTOMER_ID, value: subject.customerId });
  if (subject.billingStatus) pairs.push({ key: BILLING_STATUS, value: subject.billingStatus });
  return pairs;
}

/** "EUR 10.00": minor units shown with the currency's own number of decimals. */
export function formatMoney(amount: number, currency: string): string {
  const exponent = isCurrencyCode(currency) ? minorUnitExponent(currency) : 2;
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount)).padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return `${currency} ${sign}${whole}`;
}

const UNIT_ADVERBS: Partial<Record<BillingPeriod['unit'], string>> = {
  HOUR: 'hourly',
  DAY: 'daily',
  WEEK: 'weekly',
  MONTH: 'monthly',
  QUARTER: 'quarterly',
  YEAR: 'yearly',
};

/** "monthly", "every 2 weeks". */
export function formatPeriod(period: BillingPeriod): string {
  const adverb = UNIT_ADVERBS[period.unit];
  if (period.value === 1 && adverb) return adverb;
  return `every ${period.value} ${period.unit.toLowerCase()}${period.value === 1 ? '' : 's'}`;
}
