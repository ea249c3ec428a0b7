import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FileStorage } from '../../services/files/storage';
import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import { verifySignedPath } from '../../domain/signed-url';
import { envelopeOf } from '../errors/envelope';
import { urlSigningKey } from '../../services/files/config';
import {
  isStoredFileKey,
  isStoredFileName,
  STORED_FILE_ROUTE_PREFIX,
  storedFileContentType,
  storedFileSignedSubject,
} from './stored-file-url';

function refuse(reply: FastifyReply, error: ApiError): FastifyReply {
  const { status, body } = envelopeOf(error);
  return reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * `GET /files/stored/<storage key>?filename=…&expires=…&signature=…` (docs/reports.md): a file
 * from FileStorage at a link made by storedFileUrl. The signature is checked over the path as
 * sent, undecoded, so one key has one spelling; then the expiry; then whether the file is still
 * there (404 once a report has expired or a file was removed).
 */
export function registerStoredFileRoute(app: FastifyInstance, storage: FileStorage, now: () => Date): void {
  app.get<{ Querystring: Record<string, unknown> }>(`${STORED_FILE_ROUTE_PREFIX}*`, async (request, reply) => {
    const storageKey = request.url.split('?')[0]!.slice(STORED_FILE_ROUTE_PREFIX.length);
    const filename = single(request.query.filename);
    const expires = single(request.query.expires);
    const key = urlSigningKey();
    const invalid = () =>
      refuse(reply, new ApiError('PERMISSION_DENIED', 'The link is not valid: its signature does not match. Ask for a fresh download link.'));
    if (!key || filename === undefined || !isStoredFileKey(storageKey) || !isStoredFileName(filename)) return invalid();
    const verdict = verifySignedPath(key, storedFileSignedSubject(storageKey, filename), expires, single(request.query.signature), now());
    if (verdict === 'INVALID') return invalid();
    if (verdict === 'EXPIRED') {
      const expiredAt = formatDateTime(new Date(Number(expires) * 1000));
      return refuse(
        reply,
        new ApiError('PERMISSION_DENIED', `The link expired at ${expiredAt}. Ask for a fresh download link.`, { expired_at: expiredAt }),
      );
    }
    const body = await storage.read(storageKey);
    if (!body) return refuse(reply, new ApiError('NOT_FOUND', 'The file is no longer stored.'));
    return reply
      .code(200)
      .type(storedFileContentType(filename))
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
}
