import type { FastifyReply } from 'fastify';
import type { ApiError } from '../../domain/errors';
import { envelopeOf } from './envelope';
import { retryAfterSeconds } from './retry-after';

/** A refusal as every JSON route answers it: the section 7.1 envelope, with Retry-After when it says when to try again. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const { status, body } = envelopeOf(error);
  const retryAfter = retryAfterSeconds(error, Date.now());
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply.code(status).type('application/json').send(body);
}
