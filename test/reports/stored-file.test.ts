import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { LocalDiskStorage } from '../../services/files/local-disk-storage';
import { registerStoredFileRoute } from '../../api/files/stored-file-route';
import { storedFileContentType, storedFileUrl } from '../../api/files/stored-file-url';

const PUBLIC = 'https://billing.example.com';
const KEY = 'reports/rprt_01test/report.csv';
const CSV = 'id,status\r\ninv_1,OPEN\r\n';

let dir: string;
let storage: LocalDiskStorage;
let app: FastifyInstance;
let clock: Date;
let origin: string;
const saved = { key: process.env.URL_SIGNING_KEY, url: process.env.PUBLIC_URL };

beforeAll(async () => {
  process.env.URL_SIGNING_KEY = randomBytes(32).toString('hex');
  process.env.PUBLIC_URL = PUBLIC;
  dir = await mkdtemp(join(tmpdir(), 'stored-files-'));
  storage = new LocalDiskStorage(dir);
  app = Fastify();
  registerStoredFileRoute(app, storage, () => clock);
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
  for (const [name, value] of [['URL_SIGNING_KEY', saved.key], ['PUBLIC_URL', saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

beforeEach(async () => {
  clock = new Date('2026-05-01T12:00:00Z');
  await storage.write(KEY, Readable.from([CSV]));
});

function urlOf(key = KEY, filename = 'rprt_01test.csv', ttl?: number): string {
  const url = storedFileUrl(key, filename, clock, ttl);
  if (!url) throw new Error('storedFileUrl gave no link: URL_SIGNING_KEY is not set.');
  return url;
}

/** The link as issued for PUBLIC_URL, sent to this test server instead; the host is not signed. */
async function get(url: string) {
  const response = await fetch(`${origin}${url.slice(PUBLIC.length)}`);
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

describe('storedFileUrl', () => {
  it('points at /files/stored/<key> with the name, a 5-minute expiry and a signature, or the given TTL', () => {
    const url = new URL(urlOf());
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC}/files/stored/${KEY}`);
    expect(url.searchParams.get('filename')).toBe('rprt_01test.csv');
    expect(url.searchParams.get('expires')).toBe(String(clock.getTime() / 1000 + 300));
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(urlOf(KEY, 'x.csv', 3600)).searchParams.get('expires')).toBe(String(clock.getTime() / 1000 + 3600));
  });

  it('refuses keys that could escape storage or need encoding, and odd names', () => {
    for (const key of ['../etc/passwd', 'reports/../../x.csv', 'reports/./x.csv', '/abs.csv', 'reports//x.csv', 'a b.csv', 'r%2e%2e/x', '..', '']) {
      expect(() => storedFileUrl(key, 'x.csv', clock)).toThrow(RangeError);
    }
    for (const name of ['a"b.csv', 'a/b.csv', '..', 'über.csv', '']) {
      expect(() => storedFileUrl(KEY, name, clock)).toThrow(RangeError);
    }
  });

  it('is off without URL_SIGNING_KEY', () => {
    const key = process.env.URL_SIGNING_KEY;
    delete process.env.URL_SIGNING_KEY;
    try {
      expect(storedFileUrl(KEY, 'x.csv', clock)).toBeUndefined();
    } finally {
      process.env.URL_SIGNING_KEY = key;
    }
  });

  it('decides the content type by the extension', () => {
    expect(storedFileContentType('a.csv')).toBe('text/csv; charset=utf-8');
    expect(storedFileContentType('a.CSV')).toBe('text/csv; charset=utf-8');
    expect(storedFileContentType('a.pdf')).toBe('application/pdf');
    expect(storedFileContentType('a.bin')).toBe('application/octet-stream');
    expect(storedFileContentType('csv')).toBe('application/octet-stream');
  });
});

describe('GET /files/stored/*', () => {
  it('streams the file as an attachment with its type and name', async () => {
    const { status, headers, text } = await get(urlOf());
    expect(status).toBe(200);
    expect(text).toBe(CSV);
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(headers['content-disposition']).toBe('attachment; filename="rprt_01test.csv"');
    expect(headers['cache-control']).toBe('private, no-store');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses another key, another name, another expiry or signature with 403', async () => {
    await storage.write('reports/rprt_02other/report.csv', Readable.from(['secret,data\r\n']));
    const url = urlOf();
    const refusals = [
      url.replace('rprt_01test/', 'rprt_02other/'),
      url.replace('rprt_01test/', 'rprt_01test%2F..%2Frprt_02other/'),
      withParam(url, 'filename', 'other.csv'),
      withParam(url, 'expires', String(Number(new URL(url).searchParams.get('expires')) + 3600)),
      withParam(url, 'signature', 'A'.repeat(43)),
      `${url}&filename=rprt_01test.csv`,
      url.replace(/&signature=[^&]+/, ''),
    ];
    for (const refused of refusals) {
      const { status, text } = await get(refused);
      expect({ refused, status, code: status === 200 ? text : JSON.parse(text).code }).toEqual({ refused, status: 403, code: 'PERMISSION_DENIED' });
    }
  });

  it('refuses an expired link with 403 and says when it expired', async () => {
    const url = urlOf();
    clock = new Date(clock.getTime() + 300_000);
    const { status, headers, text } = await get(url);
    expect(status).toBe(403);
    expect(headers['cache-control']).toBe('no-store');
    expect(JSON.parse(text)).toEqual({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('expired'),
      context: { expired_at: '2026-05-01T12:05:00.000000Z' },
    });
  });

  it('answers 404 once the file is removed', async () => {
    const url = urlOf();
    await storage.remove(KEY);
    const { status, text } = await get(url);
    expect(status).toBe(404);
    expect(JSON.parse(text).code).toBe('NOT_FOUND');
  });
});
