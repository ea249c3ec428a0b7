import { monotonicFactory } from 'ulid';

/** Type prefixes of section 1, item 7, plus the platform's own records the spec does not name. */
export const ID_PREFIXES = {
  account: 'acct_',
  apiKey: 'akey_',
  apiKeySecret: 'asec_',
  apiKeySecretRecord: 'aksr_',
  channel: 'chn_',
  customer: 'cust_',
  event: 'evt_',
  invoice: 'inv_',
  subscription: 'subs_',
  subscriptionLineItem: 'slit_',
  paymentInstrument: 'pi_',
  payment: 'pay_',
  routingConfig: 'rcfg_',
  routingConfigVersion: 'rcv_',
  sandboxCharge: 'sbch_',
  request: 'req_',
  taxCategory: 'taxc_',
  settlement: 'sttl_',
  monthlyStatement: 'msttm_',
  legalEntity: 'le_',
  webhookSecret: 'wsec_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// Monotonic ULIDs sort by creation time even within one millisecond, so ordering by id
// is ordering by creation, which keyset pagination relies on.
const nextUlid = monotonicFactory();

export function newId(kind: IdKind, at: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}${nextUlid(at).toLowerCase()}`;
}

/** Section 1 item 7: antifraud lists and items carry bare ULIDs. */
export function newUlid(at: number = Date.now()): string {
  return nextUlid(at);
}

export function hasPrefix(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && value.length > ID_PREFIXES[kind].length;
}
