import { createHmac, randomBytes } from 'node:crypto';
import { signPath, verifySignedPath } from '../../domain/signed-url';

const key = randomBytes(32);
const path = '/files/invoices/inv_01jabc.pdf';
const expiresAt = 1_800_000_000;
const before = new Date((expiresAt - 1) * 1000);

function parts(query: string): { expires: string; signature: string } {
  const params = new URLSearchParams(query);
  return { expires: params.get('expires')!, signature: params.get('signature')! };
}

/** Flips one character of a base64url string to another base64url character. */
function flip(text: string, at: number): string {
  const replacement = text[at] === 'A' ? 'B' : 'A';
  return `${text.slice(0, at)}${replacement}${text.slice(at + 1)}`;
}

describe('signPath', () => {
  it('writes expires and an HMAC-SHA256 base64url signature over path, newline, expires', () => {
    const query = signPath(key, path, expiresAt);
    const expected = createHmac('sha256', key).update(`${path}\n${expiresAt}`).digest('base64url');
    expect(query).toBe(`expires=${expiresAt}&signature=${expected}`);
    expect(parts(query).signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses an expiry that is not whole non-negative seconds', () => {
    expect(() => signPath(key, path, 1.5)).toThrow(RangeError);
    expect(() => signPath(key, path, -1)).toThrow(RangeError);
    expect(() => signPath(key, path, Number.NaN)).toThrow(RangeError);
  });
});

describe('verifySignedPath', () => {
  const { expires, signature } = parts(signPath(key, path, expiresAt));

  it('accepts the link it issued until the second it expires', () => {
    expect(verifySignedPath(key, path, expires, signature, before)).toBe('VALID');
    expect(verifySignedPath(key, path, expires, signature, new Date(expiresAt * 1000 - 1))).toBe('VALID');
  });

  it('says EXPIRED from the expiry on', () => {
    expect(verifySignedPath(key, path, expires, signature, new Date(expiresAt * 1000))).toBe('EXPIRED');
    expect(verifySignedPath(key, path, expires, signature, new Date((expiresAt + 86_400) * 1000))).toBe('EXPIRED');
  });

  it('refuses a tampered path', () => {
    expect(verifySignedPath(key, '/files/invoices/inv_01jabd.pdf', expires, signature, before)).toBe('INVALID');
    expect(verifySignedPath(key, `${path}x`, expires, signature, before)).toBe('INVALID');
  });

  it('refuses a tampered expiry, also one spelt differently with the same value', () => {
    expect(verifySignedPath(key, path, String(expiresAt + 3600), signature, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, `0${expires}`, signature, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, `${expires}.0`, signature, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, '', signature, before)).toBe('INVALID');
  });

  it('refuses a tampered, truncated, padded or missing signature', () => {
    for (const at of [0, 21, 42]) expect(verifySignedPath(key, path, expires, flip(signature, at), before)).toBe('INVALID');
    expect(verifySignedPath(key, path, expires, signature.slice(0, -1), before)).toBe('INVALID');
    expect(verifySignedPath(key, path, expires, `${signature}=`, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, expires, undefined, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, undefined, signature, before)).toBe('INVALID');
  });

  it('refuses a link signed with another key, even an expired one', () => {
    const other = parts(signPath(randomBytes(32), path, expiresAt));
    expect(verifySignedPath(key, path, other.expires, other.signature, before)).toBe('INVALID');
    expect(verifySignedPath(key, path, other.expires, other.signature, new Date((expiresAt + 1) * 1000))).toBe('INVALID');
  });
});
