import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The last path segment of an invoice's `hosted_invoice_url` (docs/portal.md, "Hosted invoice
 * pages"): `<invoice id>.<signature>`, the signature the first 32 base64url characters (192 bits)
 * of an HMAC-SHA256 of the invoice id. Nothing is stored: the link is as long-lived as the key,
 * and whoever holds it may read and pay that one invoice.
 */

const SIGNATURE_LENGTH = 32;

/** An invoice id as domain/ids.ts makes them, bounded so a presented token is never hashed at any length. */
const TOKEN = /^(inv_[0-9a-z]{1,60})\.([A-Za-z0-9_-]{32})$/;

/**
 * The key the tokens are signed with, derived from URL_SIGNING_KEY under its own label: a
 * signature made for a PDF link can never be replayed as a hosted invoice token, or back.
 */
export function hostedInvoiceKey(urlSigningKey: Uint8Array): Buffer {
  return createHmac('sha256', urlSigningKey).update('hosted-invoice-url', 'utf8').digest();
}

function signature(key: Uint8Array, invoiceId: string): string {
  return createHmac('sha256', key).update(`hosted-invoice:${invoiceId}`, 'utf8').digest('base64url').slice(0, SIGNATURE_LENGTH);
}

export function hostedInvoiceToken(key: Uint8Array, invoiceId: string): string {
  return `${invoiceId}.${signature(key, invoiceId)}`;
}

/** The invoice a token names, or undefined when it is malformed or its signature is not this key's (compared in constant time). */
export function invoiceIdOfHostedToken(key: Uint8Array, token: string): string | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, invoiceId, presented] = match as unknown as [string, string, string];
  const expected = Buffer.from(signature(key, invoiceId), 'utf8');
  return timingSafeEqual(expected, Buffer.from(presented, 'utf8')) ? invoiceId : undefined;
}
