import { mkdtemp, rm, stat, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureUrlSigningKey, parseUrlSigningKey, publicUrl, urlSigningKey } from '../../services/files/config';

const HEX_KEY = 'ab'.repeat(32);

describe('URL_SIGNING_KEY', () => {
  it('reads 32 bytes or more as hex or base64 (url-safe or not)', () => {
    expect(parseUrlSigningKey(HEX_KEY)).toEqual(Buffer.alloc(32, 0xab));
    expect(parseUrlSigningKey(` ${Buffer.alloc(32, 0xfb).toString('base64')}\n`)).toEqual(Buffer.alloc(32, 0xfb));
    expect(parseUrlSigningKey(Buffer.alloc(40, 0xfb).toString('base64url'))).toEqual(Buffer.alloc(40, 0xfb));
  });

  it('refuses a key shorter than 32 bytes or in neither form', () => {
    expect(() => parseUrlSigningKey('ab'.repeat(31))).toThrow(/at least 32 bytes/);
    expect(() => parseUrlSigningKey(Buffer.alloc(31).toString('base64'))).toThrow(/at least 32 bytes/);
    expect(() => parseUrlSigningKey('not a key at all, not even close, no no no no no')).toThrow(/at least 32 bytes/);
  });

  it('is off when unset and read at each call', () => {
    expect(urlSigningKey({})).toBeUndefined();
    expect(urlSigningKey({ URL_SIGNING_KEY: HEX_KEY })).toEqual(Buffer.alloc(32, 0xab));
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to localhost on PORT and drops a trailing slash', () => {
    expect(publicUrl({})).toBe('http://localhost:3000');
    expect(publicUrl({ PORT: '8080' })).toBe('http://localhost:8080');
    expect(publicUrl({ PUBLIC_URL: 'https://billing.example.com/', PORT: '8080' })).toBe('https://billing.example.com');
  });
});

describe('ensureUrlSigningKey (npm start)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'url-key-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('creates a random key readable by its owner only, then keeps using it', async () => {
    const first: NodeJS.ProcessEnv = {};
    ensureUrlSigningKey(dataDir, first);
    const file = join(dataDir, 'url-signing.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(first.URL_SIGNING_KEY).toBe((await readFile(file, 'utf8')).trim());
    expect(parseUrlSigningKey(first.URL_SIGNING_KEY!)).toHaveLength(32);

    const second: NodeJS.ProcessEnv = {};
    ensureUrlSigningKey(dataDir, second);
    expect(second.URL_SIGNING_KEY).toBe(first.URL_SIGNING_KEY);

    const elsewhere: NodeJS.ProcessEnv = {};
    const otherDir = await mkdtemp(join(tmpdir(), 'url-key-'));
    ensureUrlSigningKey(otherDir, elsewhere);
    await rm(otherDir, { recursive: true });
    expect(elsewhere.URL_SIGNING_KEY).not.toBe(first.URL_SIGNING_KEY);
  });

  it('leaves a configured key alone and writes no file', async () => {
    const env: NodeJS.ProcessEnv = { URL_SIGNING_KEY: HEX_KEY };
    ensureUrlSigningKey(dataDir, env);
    expect(env.URL_SIGNING_KEY).toBe(HEX_KEY);
    await expect(stat(join(dataDir, 'url-signing.key'))).rejects.toThrow(/ENOENT/);
  });

  it('stops on a malformed key, configured or in the file', async () => {
    expect(() => ensureUrlSigningKey(dataDir, { URL_SIGNING_KEY: 'short' })).toThrow(/URL_SIGNING_KEY/);
    await writeFile(join(dataDir, 'url-signing.key'), 'short\n');
    expect(() => ensureUrlSigningKey(dataDir, {})).toThrow(/url-signing\.key must hold at least 32 bytes/);
  });
});
