import type { SchemaObject } from 'openapi3-ts/oas31';
import { generateOpenApiDocument, type OpenApiRouter } from 'trpc-to-openapi';
import type { AnyProcedure } from '@trpc/server';
import { appRouter } from '../router';
import type { Meta } from '../trpc';
import { seeOtherOpenApiResponse, seeOtherPaths } from '../http/see-other';
import { IDEMPOTENCY_KEY } from '../idempotency/with-idempotency';
import { bodySchemaFixes } from './body-schemas';
import { forbidNulInStrings } from './no-nul-strings';
import { optionalBodyPaths } from './optional-bodies';
import { procedureTable } from '../http/procedure-table';
import { operationErrorCodes } from './operation-errors';
import { providerPaths, providerUnavailableResponse } from './provider-unavailable';
import { requestExample } from './request-examples';

const ERROR_ENVELOPE: SchemaObject = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: 'VALIDATION, UNAUTHENTICATED, PERMISSION_DENIED, NOT_FOUND, RATE_LIMIT, INTERNAL or an operation-specific 422 code.' },
    message: { type: 'string' },
    context: {
      type: 'object',
      description: 'VALIDATION: `constraints` keyed by field path, each `{type, message}`. RATE_LIMIT: `next_try_at`.',
    },
  },
};

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'VALIDATION: malformed JSON or a field breaks its constraints (`context.constraints`).',
  '401': 'UNAUTHENTICATED: missing or invalid API key secret.',
  '403': 'PERMISSION_DENIED: the key lacks the permission, is channel-bound where an account-level key is required, or is used outside its channels.',
  '404': 'NOT_FOUND: the resource or endpoint does not exist.',
  '413': 'PAYLOAD_TOO_LARGE: the body exceeds the size limit; refused before parsing.',
  '429': 'RATE_LIMIT: quota exhausted; retry at `context.next_try_at`.',
  '500': 'INTERNAL: server-side failure; nothing internal is disclosed.',
};

/** The operation's own 422 codes: the envelope with `code` limited to them, and when each is answered. */
function unprocessableResponse(codes: [string, string][]) {
  const schema: SchemaObject = {
    ...ERROR_ENVELOPE,
    properties: { ...ERROR_ENVELOPE.properties, code: { type: 'string', enum: codes.map(([code]) => code) } },
  };
  const lines = codes.map(([code, when]) => `- \`${code}\`: ${when}`);
  return {
    description: ['The request conflicts with the current state:', '', ...lines].join('\n'),
    content: { 'application/json': { schema } },
  };
}

interface RequestBody {
  content?: Record<string, { schema?: SchemaObject; example?: unknown }>;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: the same key and body replay the first response for 24 hours (docs/idempotency.md).',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
};

function mutationPaths(): Set<string> {
  const paths = new Set<string>();
  for (const procedure of Object.values(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)) {
    const path = (procedure._def.meta as Meta | undefined)?.openapi?.path;
    if (path && procedure._def.type === 'mutation') paths.add(path);
  }
  return paths;
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * The generator's own error shape is replaced by the section 7.1 envelope.
 */
export function openApiDocument(baseUrl: string) {
  // The generator is typed for routers with free-form meta; ours narrows it.
  const document = generateOpenApiDocument(appRouter as unknown as OpenApiRouter, {
    title: 'Billing and Payments API',
    version: '2.0.0',
    baseUrl,
    description:
      'Every operation is `POST /v2/{resources}/{action}` with a JSON body and `Authorization: Bearer asec_…`. Mutating operations accept an `Idempotency-Key` header. Every response carries `request-id`.',
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key secret (asec_…).' } },
  });
  // The generator's own error shapes (`error.BAD_REQUEST`, …) go: every response below uses the envelope.
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  document.components = { ...document.components, schemas: { ...schemas, Error: ERROR_ENVELOPE } };
  const mutations = mutationPaths();
  const seeOther = seeOtherPaths(appRouter);
  const askingProvider = providerPaths(appRouter);
  const optionalBodies = optionalBodyPaths(appRouter);
  const bodyFixes = bodySchemaFixes(appRouter);
  const procedures = procedureTable(appRouter);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const post = (item as { post?: { responses?: Record<string, unknown>; parameters?: unknown[]; requestBody?: RequestBody & { required?: boolean } } }).post;
    if (!post) continue;
    if (optionalBodies.has(path) && post.requestBody) post.requestBody.required = false;
    const bodySchema = post.requestBody?.content?.['application/json']?.schema;
    const fix = bodyFixes.get(path);
    if (bodySchema && fix) Object.assign(bodySchema, fix.keywords, fix.strict ? { additionalProperties: false } : {});
    forbidNulInStrings(bodySchema);
    const body = post.requestBody?.content?.['application/json'];
    const dotted = procedures.get(path)!;
    if (body?.schema) body.example = requestExample(dotted);
    if (mutations.has(path)) post.parameters = [...(post.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    const success = post.responses?.['200'];
    const responses: Record<string, unknown> = seeOther.has(path) ? { '303': seeOtherOpenApiResponse(success) } : { '200': success };
    for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
      responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const codes = operationErrorCodes(dotted, mutations.has(path));
    if (codes.length > 0) responses['422'] = unprocessableResponse(codes);
    if (askingProvider.has(path)) responses['503'] = providerUnavailableResponse();
    post.responses = responses;
  }
  forbidNulInStrings(document.components?.schemas);
  return document;
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
