import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { PROVIDER_RETRY_AFTER_SECONDS } from '../errors/retry-after';
import type { Meta } from '../trpc';

/** `/v2/...` paths whose procedures declare `asksProvider`: only they can answer 503 PROVIDER_UNAVAILABLE. */
export function providerPaths(router: AnyRouter): Set<string> {
  const paths = new Set<string>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (meta?.asksProvider && meta.openapi?.path) paths.add(meta.openapi.path);
  }
  return paths;
}

const PROVIDER_UNAVAILABLE_ENVELOPE: SchemaObject = {
  type: 'object',
  required: ['code', 'message', 'context'],
  properties: {
    code: { type: 'string', enum: ['PROVIDER_UNAVAILABLE'] },
    message: { type: 'string' },
    context: {
      type: 'object',
      required: ['provider', 'retryable'],
      properties: {
        provider: { type: 'string', description: 'The payment provider that could not answer, e.g. `stripe`.' },
        retryable: { type: 'boolean', const: true },
      },
    },
  },
};

/** The 503 response of such an operation: the envelope with its one code, and when to retry. */
export function providerUnavailableResponse() {
  return {
    description: [
      'PROVIDER_UNAVAILABLE: the request is valid, but the payment provider could not be reached, did not answer in time, limited our rate or failed (`context.provider`, `context.retryable: true`).',
      'Nothing was saved and the `Idempotency-Key` keeps no answer: retry after `Retry-After` seconds with the same key and body (docs/errors.md).',
    ].join(' '),
    headers: {
      'Retry-After': {
        description: `Seconds to wait before retrying (${PROVIDER_RETRY_AFTER_SECONDS}).`,
        required: true,
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: { 'application/json': { schema: PROVIDER_UNAVAILABLE_ENVELOPE } },
  };
}
