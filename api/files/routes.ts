import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import { verifySignedPath } from '../../domain/signed-url';
import type { Database } from '../../prisma/client';
import { envelopeOf } from '../errors/envelope';
import { invoicePdfPath } from '../../services/invoices/pdf-url';
import { urlSigningKey } from '../../services/files/config';
import { loadCreditNoteDocument, renderCreditNotePdf } from '../credit-notes/pdf';
import { creditNotePdfPath } from '../../services/credit-notes/pdf-url';
import { loadInvoiceDocument } from './invoice-document';
import { renderInvoicePdf } from './invoice-pdf';
import { registerStoredFileRoute } from './stored-file-route';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';

export interface FileRouteDependencies {
  db: Database;
  now?: () => Date;
}

function refuse(reply: FastifyReply, error: ApiError): FastifyReply {
  const { status, body } = envelopeOf(error);
  return reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Files served at signed, expiring links (docs/invoice-pdf.md). The link is the credential:
 * no API key is asked for, so a customer can open it from an e-mail. Order of checks:
 * signature (403), expiry (403), then the record (404).
 */
export function registerFileRoutes(app: FastifyInstance, deps: FileRouteDependencies): void {
  // A malformed key stops the API at start rather than failing every link later.
  urlSigningKey();
  const now = deps.now ?? (() => new Date());
  registerStoredFileRoute(app, fileStorageFromEnv(), now);

  registerDocumentRoute(app, now, {
    route: '/files/invoices/:id.pdf',
    path: invoicePdfPath,
    what: 'Invoice',
    load: (id) => loadInvoiceDocument(deps.db, id),
    render: renderInvoicePdf,
  });
  registerDocumentRoute(app, now, {
    route: '/files/credit-notes/:id.pdf',
    path: creditNotePdfPath,
    what: 'Credit note',
    load: (id) => loadCreditNoteDocument(deps.db, id),
    render: renderCreditNotePdf,
  });
}

interface DocumentRoute<T extends { id: string }> {
  route: string;
  /** The signed path of a document id: pdf_url's path. */
  path: (id: string) => string;
  what: string;
  load: (id: string) => Promise<T | null>;
  render: (document: T) => PDFKit.PDFDocument;
}

function registerDocumentRoute<T extends { id: string }>(app: FastifyInstance, now: () => Date, document: DocumentRoute<T>): void {
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(document.route, async (request, reply) => {
    const { id } = request.params;
    const key = urlSigningKey();
    const expires = single(request.query.expires);
    const verdict = key ? verifySignedPath(key, document.path(id), expires, single(request.query.signature), now()) : 'INVALID';
    if (verdict === 'INVALID') {
      return refuse(reply, new ApiError('PERMISSION_DENIED', `The link is not valid: its signature does not match. Use the pdf_url of the ${document.what.toLowerCase()} as given.`));
    }
    if (verdict === 'EXPIRED') {
      const expiredAt = formatDateTime(new Date(Number(expires) * 1000));
      return refuse(
        reply,
        new ApiError('PERMISSION_DENIED', `The link expired at ${expiredAt}. Retrieve the ${document.what.toLowerCase()} again for a fresh pdf_url.`, { expired_at: expiredAt }),
      );
    }
    const found = await document.load(id);
    if (!found) return refuse(reply, ApiError.notFound(document.what, id));
    return reply
      .code(200)
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${found.id}.pdf"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(document.render(found));
  });
}
