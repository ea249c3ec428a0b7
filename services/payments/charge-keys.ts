import { createHash } from 'node:crypto';
import { decodeTime, ulid } from 'ulid';

/**
 * The idempotency keys of an invoice's charges (docs/invoice-payments.md, "Durability"). Each
 * is written to `invoices.payment_in_progress_id` before the charge starts and is the charge
 * path's idempotency key, so whoever finds it there can finish that very charge.
 *
 * - `{invoice}/collection/{attempt}`: attempt 0 of the collection workflow is the first
 *   automatic charge, 1… the dunning retries. Only the workflow resumes these: Temporal retries
 *   its activity until it finishes.
 * - `{invoice}/pay/{ulid}[.{request}]/{instrument}`: a manual invoices/pay. The ULID is when it
 *   was claimed; `{request}` identifies the API key and Idempotency-Key of the request, so that
 *   request's retry resumes it; the instrument is in the key so that anyone can resume it.
 */
export function collectionChargeKey(invoiceId: string, attempt: number): string {
  return `${invoiceId}/collection/${attempt}`;
}

export interface PayChargeKey {
  key: string;
  instrumentId: string;
  claimedAt: number;
  request?: string;
}

/** Identifies one (API key, Idempotency-Key) pair without putting the merchant's key in ours. */
export function requestTag(apiKeyId: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${apiKeyId}\0${idempotencyKey}`).digest('hex').slice(0, 20);
}

export function newPayChargeKey(invoiceId: string, instrumentId: string, now: Date, request?: string): string {
  // Not the monotonic factory: the ULID must carry the claim's own time, which the lease reads.
  return `${invoiceId}/pay/${ulid(now.getTime())}${request ? `.${request}` : ''}/${instrumentId}`;
}

/** The parts of a manual pay's key, or undefined for a collection workflow's. */
export function parsePayChargeKey(key: string): PayChargeKey | undefined {
  const [, kind, token, instrumentId] = key.split('/');
  if (kind !== 'pay' || !token || !instrumentId) return undefined;
  const [ulid, request] = token.split('.');
  return { key, instrumentId, claimedAt: decodeTime(ulid!.toUpperCase()), ...(request ? { request } : {}) };
}

/**
 * How long a manual pay may hold the invoice before another request or the workflow takes its
 * charge over and finishes it: well past the payment's own 2-minute claim lease, so a live request
 * is never overtaken; the charge is idempotent by key, so even then nothing is charged twice.
 */
export const PAY_CLAIM_LEASE_MS = 5 * 60 * 1000;

/** Whether a manual pay's claim has outlived its lease: anyone may then finish its charge. */
export function payClaimAbandoned(claim: PayChargeKey, now: Date): boolean {
  return now.getTime() - claim.claimedAt > PAY_CLAIM_LEASE_MS;
}
