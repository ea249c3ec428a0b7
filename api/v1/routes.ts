import type { Client as TemporalClient } from '@temporalio/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors';
import type { Database, Prisma } from '../../prisma/client';
import type { RateLimiting } from '../rate-limit/token-bucket';
import { restoreSubscription } from '../../services/subscriptions/restore';
import { PreviousRunStillClosing } from '../../services/subscriptions/workflow-client';
import { answerV1RequestOnce, recordedV1Answer, type V1Answer, type V1RequestKey } from '../../services/v1/recorded-answers';
import { authenticateV1 } from './authenticate';
import { INTERNAL_ERROR, RESTORED, rateLimitError, v1ResponseOf, type V1Body, type V1Response } from './envelope';
import { parseJsonBody, parseRestoreRequest } from './schemas';

/** The bucket name of the v1 operation in RATE_LIMITS (docs/rate-limits.md). */
export const V1_RESTORE_OPERATION = 'v1:subscription-restore';

export type RestoreSubscription = (
  deps: { temporal: TemporalClient; now: () => Date },
  tx: Prisma.TransactionClient,
  input: { accountId: string; subscriptionId: string; expiresAt?: Date; coupon?: { id?: string; code?: string } },
) => Promise<void>;

export interface V1Dependencies {
  db: Database;
  temporal: TemporalClient;
  rateLimiter: RateLimiting;
  now?: () => Date;
  /** services/subscriptions/restore.ts unless a test stands in for it. */
  restore?: RestoreSubscription;
}

export interface V1Request {
  merchant?: string;
  signature?: string;
  /** The body bytes exactly as received: what the signature covers. */
  body: Buffer;
}

function responseOf(answer: V1Answer): V1Response {
  return { status: answer.status, body: answer.body as V1Body };
}

/**
 * The refusals that are this request's final answer, recorded for its bytes. Not a 500 (its
 * transaction rolled back, so nothing happened and a retry runs again), nor a refusal that only
 * says "retry in a few seconds".
 */
function finalRefusal(error: unknown): V1Answer | undefined {
  if (!(error instanceof ApiError) || error instanceof PreviousRunStillClosing) return undefined;
  const response = v1ResponseOf(error);
  return response.status >= 500 ? undefined : { status: response.status, body: response.body };
}

/**
 * Section 4.12, in this order: who calls (401/403), the answer already given to these bytes, their
 * quota (429), then the body (400), then the subscription (404, a refusal, or restored). Nothing
 * about the payload is checked for a caller who has not proven who they are.
 */
export async function restoreThroughV1(deps: V1Dependencies, request: V1Request): Promise<V1Response> {
  const now = deps.now ?? (() => new Date());
  const { accountId, secretGeneration } = await authenticateV1(deps.db, request.merchant, request.signature, request.body);
  const key: V1RequestKey = { accountId, body: request.body, secretGeneration };
  const decidedAt = now();
  // Before the quota, so a retry or a replayed copy takes nothing from the merchant's bucket.
  const earlier = await recordedV1Answer(deps.db, key, decidedAt);
  if (earlier) return responseOf(earlier);
  const decision = await deps.rateLimiter.take(accountId, V1_RESTORE_OPERATION, decidedAt.getTime());
  if (!decision.allowed) throw rateLimitError(decision.retryAt, decidedAt);

  const restore = deps.restore ?? restoreSubscription;
  const answer = await answerV1RequestOnce(
    deps.db,
    key,
    decidedAt,
    async (tx) => {
      const input = parseRestoreRequest(parseJsonBody(request.body));
      const at = now();
      // Section 4.12: a past expiry becomes now, "to avoid unwanted charges".
      const expiresAt = input.expiredAt && input.expiredAt.getTime() < at.getTime() ? at : input.expiredAt;
      await restore({ temporal: deps.temporal, now }, tx, {
        accountId,
        subscriptionId: input.subscriptionId,
        ...(expiresAt ? { expiresAt } : {}),
        ...(input.coupon ? { coupon: input.coupon } : {}),
      });
      return { status: RESTORED.status, body: RESTORED.body };
    },
    finalRefusal,
  );
  return responseOf(answer);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(reply: FastifyReply, response: V1Response): FastifyReply {
  return reply
    .code(response.status)
    .headers(response.headers ?? {})
    .type('application/json')
    .send(response.body);
}

/**
 * `POST /subscription/restore` (no /v2 prefix, section 9), in a Fastify scope of its own: here
 * the body is kept as the bytes received, since the signature covers exactly those, and every
 * failure, including the framework's, is answered in the v1 envelope. The secret and the
 * signature are never logged: the request log holds method, path and address only.
 */
export function registerV1Routes(app: FastifyInstance, deps: V1Dependencies): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        return send(reply, v1ResponseOf(new ApiError('PAYLOAD_TOO_LARGE', `The request body exceeds ${app.initialConfig.bodyLimit} bytes.`)));
      }
      if (error.statusCode && error.statusCode < 500) {
        return send(reply, v1ResponseOf(new ApiError('VALIDATION', 'The request could not be read.')));
      }
      request.log.error({ err: error }, 'unhandled error');
      return send(reply, v1ResponseOf(INTERNAL_ERROR));
    });

    scope.post('/subscription/restore', async (request, reply) => {
      try {
        const response = await restoreThroughV1(deps, {
          merchant: header(request, 'merchant'),
          signature: header(request, 'signature'),
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        return send(reply, response);
      } catch (error) {
        if (error instanceof ApiError) return send(reply, v1ResponseOf(error));
        request.log.error({ err: error }, 'v1 restore failed');
        return send(reply, v1ResponseOf(INTERNAL_ERROR));
      }
    });
  });
}
