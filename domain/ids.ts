import { encodeTime, monotonicFactory } from 'ulid';

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
  subscriptionStatusChange: 'ssch_',
  paymentInstrument: 'pi_',
  payment: 'pay_',
  invoiceLineItem: 'ili_',
  refund: 'rfnd_',
  sandboxRefund: 'sbrf_',
  routingConfig: 'rcfg_',
  routingConfigVersion: 'rcv_',
  sandboxCharge: 'sbch_',
  request: 'req_',
  taxCategory: 'taxc_',
  settlement: 'sttl_',
  monthlyStatement: 'msttm_',
  legalEntity: 'le_',
  webhookSecret: 'wsec_',
  webhookEndpoint: 'whep_',
  webhookSecretRecord: 'whsr_',
  webhookDelivery: 'whdl_',
  webhookDeliveryAttempt: 'what_',
  report: 'rprt_',
  settlementFile: 'sttf_',
  creditNote: 'cn_',
  creditNoteLine: 'cnl_',
  customerBalanceTransaction: 'cbtx_',
  dashboardUser: 'usr_',
  dashboardInvitation: 'uinv_',
  dashboardSession: 'sess_',
  dashboardAuditEntry: 'aud_',
  dashboardPasswordReset: 'pwr_',
  meter: 'mtr_',
  customerPortalSession: 'cps_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// Monotonic ULIDs sort by creation time even within one millisecond, so ordering by id
// is ordering by creation, which keyset pagination relies on.
const nextUlid = monotonicFactory(pooledRandom);

/**
 * ulid's own PRNG asks the system for one byte per character, sixteen calls per id: 2 % of the
 * API's CPU under bench:api (docs/benchmarks.md). This draws the same bytes, a page at a time, with
 * the same mapping (a byte / 256).
 */
const randomPage = new Uint8Array(4096);
let randomNext = randomPage.length;
function pooledRandom(): number {
  if (randomNext === randomPage.length) {
    crypto.getRandomValues(randomPage);
    randomNext = 0;
  }
  return randomPage[randomNext++]! / 256;
}

export function newId(kind: IdKind, at: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}${nextUlid(at).toLowerCase()}`;
}

/**
 * The smallest id `newId(kind, at)` can make for any `at` at or after this instant: every id of
 * that kind made since then sorts at or above it, so an index on the id finds them by range.
 */
export function firstIdAt(kind: IdKind, at: number): string {
  return `${ID_PREFIXES[kind]}${encodeTime(at, 10).toLowerCase()}`;
}

/** Section 1 item 7: antifraud lists and items carry bare ULIDs. */
export function newUlid(at: number = Date.now()): string {
  return nextUlid(at);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Section 1 item 7: products, prices and coupons carry UUID-style ids. These are UUIDv7 (the
 * 48-bit millisecond time first), made from a monotonic ULID, so id order is creation order
 * and keyset pagination works as for every other record.
 */
export function newUuid(at: number = Date.now()): string {
  let bits = 0n;
  for (const char of nextUlid(at)) bits = (bits << 5n) | BigInt(CROCKFORD.indexOf(char));
  bits = (bits & ~(0xfn << 76n)) | (0x7n << 76n);
  bits = (bits & ~(0x3n << 62n)) | (0x2n << 62n);
  const hex = bits.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function hasPrefix(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && value.length > ID_PREFIXES[kind].length;
}
