import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATION_ERROR_CODES } from '../../domain/errors';
import { procedureTable } from '../../api/http/procedure-table';
import { openApiDocument } from '../../api/openapi/document';
import { errorCodeTable } from '../../api/openapi/error-code-table';
import { appRouter } from '../../api/router';
import { documentedTable, ERRORS_DOC } from '../../scripts/docs/error-codes-table';
import type { SectionFourErrorCodes } from '../../scripts/spec/section-4-error-codes';

/**
 * Issue 16 item 3: every operation's 422 response names exactly its own codes, at least those the
 * spec lists for it, and docs/errors.md's table says the same.
 */

/**
 * The spec's section 4 "Errors:" lines, by operation, as scripts/spec/section-4-error-codes.ts
 * extracted them: a fixture in the project, so a clone without the spec beside it passes.
 */
const SPEC_CODES: SectionFourErrorCodes = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/spec-section-4-error-codes.json'), 'utf8'));
const document: any = openApiDocument('http://localhost:3000');
const unprocessable = (operation: string) => document.paths[operation]?.post.responses['422'];
const codesOf = (operation: string): string[] => unprocessable(operation)?.content['application/json'].schema.properties.code.enum ?? [];

describe('422 codes per operation', () => {
  const spec = new Map(Object.entries(SPEC_CODES.operations));

  it('holds the spec’s Errors lines of section 4, naming where they come from', () => {
    expect(SPEC_CODES.source).toMatch(/^billing-api-v2\.md, section 4 /);
    expect(spec.get('/v2/invoices/pay')).toEqual(['INCOMPATIBLE_STATUS', 'OPEN_PAYMENT_LIMIT_REACHED', 'INVOICE_OVERDUE', 'PAYMENT_INSTRUMENT_NOT_FOUND', 'PAYMENT_INSTRUMENT_NOT_ACTIVE']);
    expect(spec.get('/v2/customers/patch')).toEqual(['INVALID_DEFAULT_PAYMENT_INSTRUMENT', 'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE', 'INVALID_TAX_REGISTRATION_VALIDATION_UPDATE']);
    expect(spec.get('/v2/api-keys/get')).toEqual([]);
    expect([...spec.keys()].sort()).toEqual(
      ['/v2/antifraud-lists/list', '/v2/antifraud-lists/list-item', '/v2/api-keys/get', '/v2/customers/patch', '/v2/customers/update', '/v2/invoices/pay', '/v2/invoices/void', '/v2/monthly-statements/list', '/v2/settlements/get'],
    );
  });

  it('lists in each operation’s 422 every code the spec names for it', () => {
    const missing = [...spec].flatMap(([operation, codes]) => codes.filter((code) => !codesOf(operation).includes(code)).map((code) => `${operation} ${code}`));
    expect(missing).toEqual([]);
  });

  it('limits the envelope’s code to the operation’s own codes and says when each is answered', () => {
    const pay = unprocessable('/v2/invoices/pay');
    expect(pay.content['application/json'].schema).toMatchObject({ required: ['code', 'message'], properties: { message: { type: 'string' }, context: { type: 'object' } } });
    expect(codesOf('/v2/invoices/pay')).toEqual(['INCOMPATIBLE_STATUS', 'PAYMENT_INSTRUMENT_NOT_FOUND', 'PAYMENT_INSTRUMENT_NOT_ACTIVE', 'INVOICE_OVERDUE', 'OPEN_PAYMENT_LIMIT_REACHED', 'IDEMPOTENCY_KEY_REUSED']);
    for (const code of codesOf('/v2/invoices/pay')) expect(pay.description).toMatch(new RegExp(`^- \`${code}\`: \\S`, 'm'));
    expect(codesOf('/v2/coupons/create')).toEqual(['COUPON_CODE_ALREADY_EXISTS', 'IDEMPOTENCY_KEY_REUSED']);
    expect(codesOf('/v2/antifraud-lists/list')).toEqual(['INCOMPATIBLE_STATUS']);
  });

  it('gives an operation that answers no 422 no 422 response, and every mutation IDEMPOTENCY_KEY_REUSED', () => {
    for (const operation of ['/v2/api-keys/get', '/v2/customers/get', '/v2/settlements/get', '/v2/monthly-statements/list', '/v2/products/list']) {
      expect({ operation, response: unprocessable(operation) }).toEqual({ operation, response: undefined });
    }
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const mutations = [...procedureTable(appRouter)].filter(([, dotted]) => procedures[dotted]!._def.type === 'mutation').map(([operation]) => operation);
    expect(mutations.length).toBeGreaterThan(30);
    expect(mutations.filter((operation) => !codesOf(operation).includes('IDEMPOTENCY_KEY_REUSED'))).toEqual([]);
  });

  it('declares only codes of domain/errors.ts, each once per operation', () => {
    for (const operation of Object.keys(document.paths)) {
      const codes = codesOf(operation);
      expect(codes.filter((code) => !(OPERATION_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
      expect(new Set(codes).size).toBe(codes.length);
    }
  });

  it('docs/errors.md holds the table generated from the same declarations', () => {
    expect(documentedTable(readFileSync(ERRORS_DOC, 'utf8'))).toBe(errorCodeTable());
  });
});
