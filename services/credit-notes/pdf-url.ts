import { signedDocumentUrl } from '../invoices/pdf-url';

export function creditNotePdfPath(creditNoteId: string): string {
  return `/files/credit-notes/${creditNoteId}.pdf`;
}

/** The credit note's `pdf_url`: signed and expiring exactly as an invoice's (docs/invoice-pdf.md). */
export function creditNotePdfUrl(creditNoteId: string, now: Date): string | undefined {
  return signedDocumentUrl(creditNotePdfPath(creditNoteId), now);
}
