import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../api/http/server';
import { DEFAULT_SLOW_REQUEST_MS, slowRequestSetting } from '../../api/http/slow-requests';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { createLogger } from '../../services/logging/logger';
import { prettyLine } from '../../services/logging/pretty-line';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
const written: string[] = [];
let server: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  // The platform's API logs nothing; this one is the production API's logger, its lines collected.
  const logger = createLogger({ name: 'api', level: 'trace', format: 'json', destination: { write: (line: string) => void written.push(line) } });
  server = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1000, burst: 1000 })) }, { logger });
  await server.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});

afterAll(() => server?.close());

/** A request, and every line the server wrote from its start until its "request completed" (written after the response is sent). */
async function logged(path: string, body: string, headers: Record<string, string> = {}) {
  const from = written.length;
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const requestId = response.headers.get('request-id')!;
  await response.text();
  for (let i = 0; i < 100 && !written.slice(from).some((line) => line.includes('request completed')); i++) await new Promise((r) => setTimeout(r, 20));
  const raw = written.slice(from);
  return { status: response.status, requestId, raw, lines: raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('request logs', () => {
  it('puts the request-id on every line a request writes, as JSON', async () => {
    const created = await logged('/v2/customers/create', JSON.stringify({ type: 'INDIVIDUAL', email: 'logs@example.com' }), { authorization: `Bearer ${platform.rootSecret}` });
    expect(created.status).toBe(200);
    const refused = await logged('/v2/customers/get', JSON.stringify({ id: 'cust_01jdoesnotexist0000000000000' }), { authorization: `Bearer ${platform.rootSecret}` });
    expect(refused.status).not.toBe(200);

    for (const request of [created, refused]) {
      expect(request.requestId).toMatch(/^req_/);
      expect(request.lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      for (const line of request.lines) {
        expect(line).toMatchObject({ request_id: request.requestId, name: 'api' });
        expect(typeof line.time).toBe('string');
        expect(typeof line.level).toBe('string');
      }
    }
    const completed = created.lines.find((line) => line.msg === 'request completed')!;
    expect(completed).toMatchObject({ res: { status: 200 } });
  });

  it('logs neither the bearer key nor a card number a request carries, nor either inside a logged error', async () => {
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'card@example.com' });
    const card = '4242424242424242';
    const query = `?note=${platform.rootSecret}`;
    const tokenized = await logged(`/v2/payment-instruments/tokenize${query}`, JSON.stringify({ customer_id: customer.body.id, card: { number: card, exp_month: 12, exp_year: 2040 } }), {
      authorization: `Bearer ${platform.rootSecret}`,
    });
    const malformed = await logged('/v2/payment-instruments/tokenize', `{"card":{"number":"${card}"`, { authorization: `Bearer ${platform.rootSecret}` });
    expect(malformed.status).toBe(400);
    expect(tokenized.raw.length + malformed.raw.length).toBeGreaterThan(0);

    // Whatever code logs: an error quoting a card number, a header object, a secret in the message.
    const lines: string[] = [];
    const logger = createLogger({ name: 'api', level: 'info', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
    logger.error(
      { err: new Error(`charge of 4242 4242 4242 4242 refused for ${platform.rootSecret}`), headers: { authorization: `Bearer ${platform.rootSecret}` }, secret: 'wsec_abcDEF123' },
      'signing with wsec_abcDEF123 failed; card 4000-0000-0000-0002',
    );
    logger.error({ v1: 'v1sec_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MC1fQUJDREVGR0g' }, 'v1 restore signed with v1sec_abc-DEF_123 failed');
    logger.warn({ authorization: 'Bearer some-token-the-platform-never-issued' }, 'Authorization: Bearer another-token');

    const everything = [...tokenized.raw, ...malformed.raw, ...lines].join('');
    for (const secret of [platform.rootSecret, platform.rootSecret.slice(5), card, '4242 4242 4242 4242', '4000-0000-0000-0002', 'wsec_abcDEF123', 'v1sec_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MC1fQUJDREVGR0g', 'v1sec_abc-DEF_123', 'abc-DEF_123', 'some-token-the-platform-never-issued', 'another-token']) {
      expect(everything).not.toContain(secret);
    }
    // What is not a secret stays: the line still says what happened, and ids and amounts are not mistaken for cards.
    expect(lines[0]).toContain('[REDACTED]');
    expect(lines[0]).toContain('refused for');
    const kept = [] as string[];
    createLogger({ name: 'api', format: 'json', destination: { write: (line: string) => void kept.push(line) } }).info({ amount: 123456789012, invoice: 'inv_01jd4242424242424242424242' }, 'ok');
    expect(kept[0]).toContain('123456789012');
    expect(kept[0]).toContain('inv_01jd4242424242424242424242');
  });

  it('writes one readable line per entry outside production', () => {
    const json = JSON.stringify({ level: 'info', time: '2026-11-24T10:00:00.123Z', name: 'api', request_id: 'req_01abc', msg: 'request completed', res: { status: 200 }, responseTime: 4.2 });
    expect(prettyLine(json)).toBe('10:00:00.123 INFO  api request completed request_id=req_01abc res={"status":200} responseTime=4.2\n');
  });
});

describe('slow request log', () => {
  /** A server logging at `warn`, as `npm start` does, with the given threshold; its lines collected. */
  async function serverLoggingSlowerThan(slowRequestMs: number) {
    const lines: string[] = [];
    const logger = createLogger({ name: 'api', level: 'warn', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
    const slow = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1000, burst: 1000 })) }, { logger, slowRequestMs });
    await slow.listen({ port: 0, host: '127.0.0.1' });
    return { server: slow, lines, url: `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}` };
  }

  async function get(url: string) {
    const response = await fetch(`${url}/v2/customers/get?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.rootSecret}` },
      body: JSON.stringify({ id: 'cust_01jdoesnotexist0000000000000' }),
    });
    await response.text();
    return response;
  }

  it('writes a warn line with path, status and time for a request over the threshold, and nothing under it', async () => {
    const strict = await serverLoggingSlowerThan(0.001);
    const lenient = await serverLoggingSlowerThan(60_000);
    try {
      const answered = await get(strict.url);
      await get(lenient.url);
      for (let i = 0; i < 50 && strict.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      const logged = strict.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'slow request');
      expect(logged).toEqual([
        expect.objectContaining({ level: 'warn', path: '/v2/customers/get', status: 404, request_id: answered.headers.get('request-id') }),
      ]);
      expect(typeof logged[0]!.response_time_ms).toBe('number');
      expect(lenient.lines.filter((line) => line.includes('slow request'))).toEqual([]);
    } finally {
      await strict.server.close();
      await lenient.server.close();
    }
  });

  it('reads SLOW_REQUEST_MS as a positive number of milliseconds, else 5 s', () => {
    expect(slowRequestSetting('250')).toBe(250);
    for (const value of [undefined, '', '0', '-3', 'soon']) expect(slowRequestSetting(value)).toBe(DEFAULT_SLOW_REQUEST_MS);
    expect(DEFAULT_SLOW_REQUEST_MS).toBe(5_000);
  });
});
