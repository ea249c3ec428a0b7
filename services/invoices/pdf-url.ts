import { signPath } from '../../domain/signed-url';
import { publicUrl, urlSigningKey } from '../files/config';

/**
 * 30 days: the same link goes into event payloads, and a webhook is retried for almost four
 * days (docs/webhooks.md) and read by its receiver later still, so a link must outlive every
 * attempt. A leaked link is cut off by rotating URL_SIGNING_KEY (docs/invoice-pdf.md).
 */
export const INVOICE_PDF_URL_TTL_SECONDS = 30 * 24 * 60 * 60;

export function invoicePdfPath(invoiceId: string): string {
  return `/files/invoices/${invoiceId}.pdf`;
}

/**
 * The invoice's `pdf_url` (docs/invoice-pdf.md): a link signed with URL_SIGNING_KEY, valid
 * for `ttlSeconds` from `now`. Undefined when no key is configured: links are then off.
 */
export function invoicePdfUrl(invoiceId: string, now: Date, ttlSeconds: number = INVOICE_PDF_URL_TTL_SECONDS): string | undefined {
  return signedDocumentUrl(invoicePdfPath(invoiceId), now, ttlSeconds);
}

/** A document's link at `path`, signed and expiring as an invoice PDF's (credit notes use it too). */
export function signedDocumentUrl(path: string, now: Date, ttlSeconds: number = INVOICE_PDF_URL_TTL_SECONDS): string | undefined {
  const key = urlSigningKey();
  if (!key) return undefined;
  return `${publicUrl()}${path}?${signPath(key, path, Math.floor(now.getTime() / 1000) + ttlSeconds)}`;
}
