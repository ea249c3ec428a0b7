import type { AddressInfo } from 'node:net';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { createDatabase } from '../../prisma/client';
import { usePlatform } from '../support/platform';

const platform = usePlatform({ bodyLimitBytes: 4096 });

const REQUEST_ID = /^req_[0-9a-z]{26}$/;

describe('the /v2 error envelope over real HTTP', () => {
  it('answers malformed JSON with 400 VALIDATION and a constraint on the body', async () => {
    const res = await platform.call('/v2/api-keys/get', undefined, { rawBody: '{"id": "akey_1",' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(res.body.context.constraints.body.type).toBe('FORMAT');
    expect(JSON.stringify(res.body)).not.toContain('akey_1');
    expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
  });

  it('keys constraints by field path with REQUIRED, TYPE, MIN, MAX, ENUM, FORMAT and UNKNOWN_FIELD', async () => {
    const missing = await platform.call('/v2/api-keys/get', {});
    expect(missing.status).toBe(400);
    expect(missing.body.context.constraints.id).toEqual({ type: 'REQUIRED', message: expect.any(String) });

    const wrongType = await platform.call('/v2/api-keys/get', { id: 42 });
    expect(wrongType.body.context.constraints.id.type).toBe('TYPE');

    const wrongPrefix = await platform.call('/v2/api-keys/get', { id: 'cust_123' });
    expect(wrongPrefix.body.context.constraints.id.type).toBe('FORMAT');

    const outOfRange = await platform.call('/v2/api-keys/list', { pagination: { page_size: 0 } });
    expect(outOfRange.body.context.constraints['pagination.page_size'].type).toBe('MIN');

    const tooBig = await platform.call('/v2/api-keys/list', { pagination: { page_size: 1000 } });
    expect(tooBig.body.context.constraints['pagination.page_size'].type).toBe('MAX');

    const unknownEnum = await platform.call('/v2/api-keys/create', { name: 'x', permissions: ['invoices:explode'] });
    expect(unknownEnum.status).toBe(400);
    expect(unknownEnum.body.context.constraints['permissions[0]'].type).toBe('ENUM');

    const badOperator = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'RANGE', value: 'x' } } });
    expect(badOperator.body.context.constraints['filters.name.operator'].type).toBe('ENUM');

    const badDate = await platform.call('/v2/api-keys/list', {
      filters: { created_at: { operator: 'RANGE', value: { from: '2026-13-01' } } },
    });
    expect(badDate.body.context.constraints['filters.created_at.value.from'].type).toBe('FORMAT');

    const unknownField = await platform.call('/v2/api-keys/get', { id: 'akey_x', colour: 'red' });
    expect(unknownField.body.context.constraints.colour.type).toBe('UNKNOWN_FIELD');
  });

  it('takes the Bearer scheme in any case, with one or more spaces before the secret (RFC 7235)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      for (const space of [' ', '   ']) {
        const res = await platform.call('/v2/api-keys/list', {}, { secret: null, headers: { authorization: `${scheme}${space}${platform.rootSecret}` } });
        expect({ scheme, space, status: res.status }).toEqual({ scheme, space, status: 200 });
      }
    }
    for (const authorization of [`Basic ${platform.rootSecret}`, `Bearer`, `Bearer${platform.rootSecret}`, `Bearer ${platform.rootSecret} extra`]) {
      const res = await platform.call('/v2/api-keys/list', {}, { secret: null, headers: { authorization } });
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
    }
  });

  it('answers 401 UNAUTHENTICATED for a missing, malformed or unknown secret', async () => {
    for (const secret of [null, 'not-a-secret', `asec_${'A'.repeat(59)}`]) {
      const res = await platform.call('/v2/api-keys/list', {}, { secret });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHENTICATED', message: expect.any(String) });
    }
  });

  it('authenticates before it validates, so an anonymous caller learns nothing about the payload', async () => {
    const res = await platform.call('/v2/api-keys/get', { id: 5 }, { secret: null });
    expect(res.status).toBe(401);
  });

  it('answers 404 NOT_FOUND for an unknown resource, an unknown action, another method and another path', async () => {
    const cases = [
      platform.call('/v2/api-keys/get', { id: 'akey_01jdoesnotexist000000000000' }),
      platform.call('/v2/api-keys/explode', {}),
      platform.call('/v2/unicorns/list', {}),
      fetch(`${platform.baseUrl}/v2/api-keys/list`).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() })),
      platform.call('/v3/api-keys/list', {}),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
    }
  });

  it('refuses an oversized body before parsing it', async () => {
    const res = await platform.call('/v2/api-keys/list', undefined, { rawBody: `{"pad":"${'x'.repeat(8192)}"}` });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
  });

  it('answers 500 INTERNAL without leaking what failed', async () => {
    const broken = createDatabase('postgresql://nobody:secret-password@127.0.0.1:1/none');
    const server = buildServer({ db: broken, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1, burst: 1 })) });
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}/v2/api-keys/list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${platform.rootSecret}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ code: 'INTERNAL', message: expect.any(String) });
      expect(text).not.toMatch(/secret-password|127\.0\.0\.1|ECONNREFUSED|at /);
      expect(res.headers.get('request-id')).toMatch(REQUEST_ID);
    } finally {
      await server.close();
      await broken.$disconnect();
    }
  });

  it('serves the OpenAPI 3.1 document and a reference page that renders it from our own files', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    expect(document.openapi).toMatch(/^3\.1/);
    const rotate = document.paths['/v2/api-keys/rotate'].post;
    expect(rotate.requestBody.content['application/json'].schema.required).toEqual(['id', 'rotation_period']);
    expect(rotate.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(document.paths['/v2/api-keys/get'].post.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
    expect(Object.keys(rotate.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429', '500']));
    // What the page shows is rendered in the browser: test/api-reference/reference-page.test.ts.
    const page = await (await fetch(`${platform.baseUrl}/docs`)).text();
    expect(page).toContain('/docs/assets/swagger-ui-bundle.js');
    const bundle = await fetch(`${platform.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'application/javascript; charset=utf-8']);
    expect((await fetch(`${platform.baseUrl}/docs/assets/package.json`)).status).toBe(404);
  });
});

describe('rate limits', () => {
  const limited = usePlatform({ quota: { ratePerSecond: 0.5, burst: 2 } });

  it('answers 429 RATE_LIMIT with next_try_at once a key exhausts its bucket for an operation', async () => {
    expect((await limited.call('/v2/api-keys/list', {})).status).toBe(200);
    expect((await limited.call('/v2/api-keys/list', {})).status).toBe(200);
    const before = Date.now();
    const refused = await limited.call('/v2/api-keys/list', {});
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMIT');
    const nextTry = refused.body.context.next_try_at as string;
    expect(nextTry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(Date.parse(nextTry)).toBeGreaterThan(before);
    expect(Date.parse(nextTry)).toBeLessThanOrEqual(before + 2_500);
    // The same moment in whole seconds, as the header HTTP clients and proxies read.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);

    // Buckets are per operation: another operation of the same key still has its own.
    const other = await limited.call('/v2/api-keys/get', { id: 'akey_01jdoesnotexist000000000000' });
    expect(other.status).toBe(404);
  });
});
