import { hostedInvoiceKey, hostedInvoiceToken } from '../../domain/portal/hosted-invoice-token';
import { publicUrl, urlSigningKey } from '../files/config';

/** The key of hosted invoice tokens, derived from URL_SIGNING_KEY; undefined when none is configured. */
export function hostedInvoiceSigningKey(): Buffer | undefined {
  const key = urlSigningKey();
  return key && hostedInvoiceKey(key);
}

export function hostedInvoicePath(token: string): string {
  return `/portal/invoices/${token}`;
}

/**
 * The invoice's `hosted_invoice_url` (docs/portal.md, "Hosted invoice pages"): the public page
 * where its customer reads and pays it. Undefined when no URL_SIGNING_KEY is configured, as pdf_url.
 */
export function hostedInvoiceUrl(invoiceId: string): string | undefined {
  const key = hostedInvoiceSigningKey();
  return key && `${publicUrl()}${hostedInvoicePath(hostedInvoiceToken(key, invoiceId))}`;
}
