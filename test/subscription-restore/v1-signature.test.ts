import { createHmac } from 'node:crypto';
import { computeV1Signature, isV1Secret, newV1Secret, verifyV1Signature } from '../../domain/v1-signature';
import { parseV1DateTime } from '../../api/v1/schemas';

const secret = newV1Secret();
const body = Buffer.from('{"subscription_id":"subs_01jabc","coupon_code":"WELCOME"}', 'utf8');

describe('v1 secrets', () => {
  it('are v1sec_ and 256 random bits in base64url, different every time', () => {
    expect(secret).toMatch(/^v1sec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice('v1sec_'.length), 'base64url')).toHaveLength(32);
    expect(isV1Secret(secret)).toBe(true);
    expect(newV1Secret()).not.toBe(secret);
    expect(isV1Secret('asec_abc')).toBe(false);
  });
});

describe('computeV1Signature', () => {
  it('is Base64 of the raw HMAC-SHA256 of the body keyed with the whole secret string', () => {
    const expected = createHmac('sha256', secret).update(body).digest('base64');
    expect(computeV1Signature(secret, body)).toBe(expected);
    expect(computeV1Signature(secret, body)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(computeV1Signature(secret, body.toString('utf8'))).toBe(expected);
  });

  it('covers the bytes, not the JSON they spell', () => {
    const respaced = Buffer.from('{"subscription_id": "subs_01jabc","coupon_code":"WELCOME"}', 'utf8');
    expect(computeV1Signature(secret, respaced)).not.toBe(computeV1Signature(secret, body));
  });
});

describe('verifyV1Signature', () => {
  const good = computeV1Signature(secret, body);

  it('accepts the signature of these exact bytes under this secret', () => {
    expect(verifyV1Signature(secret, body, good)).toBe(true);
  });

  it('refuses another secret, another body, or a missing signature', () => {
    expect(verifyV1Signature(newV1Secret(), body, good)).toBe(false);
    expect(verifyV1Signature(secret, Buffer.concat([body, Buffer.from(' ')]), good)).toBe(false);
    expect(verifyV1Signature(secret, body, undefined)).toBe(false);
    expect(verifyV1Signature(secret, body, '')).toBe(false);
  });

  it('refuses other spellings of the same digest: hex, base64url, unpadded', () => {
    const digest = createHmac('sha256', secret).update(body).digest();
    expect(verifyV1Signature(secret, body, digest.toString('hex'))).toBe(false);
    expect(verifyV1Signature(secret, body, good.slice(0, -1))).toBe(false);
    expect(verifyV1Signature(secret, body, `${good} `)).toBe(false);
  });

  it('refuses the base64url spelling of a digest whose Base64 holds + or /', () => {
    const fixed = `v1sec_${'A'.repeat(43)}`;
    let n = 0;
    while (!/[+/]/.test(computeV1Signature(fixed, `{"n":${n}}`))) n++;
    const urlSafe = createHmac('sha256', fixed).update(`{"n":${n}}`).digest('base64url');
    expect(verifyV1Signature(fixed, `{"n":${n}}`, `${urlSafe}=`)).toBe(false);
    expect(verifyV1Signature(fixed, `{"n":${n}}`, computeV1Signature(fixed, `{"n":${n}}`))).toBe(true);
  });

  it('refuses a signature with one character changed', () => {
    const flipped = `${good[0] === 'A' ? 'B' : 'A'}${good.slice(1)}`;
    expect(verifyV1Signature(secret, body, flipped)).toBe(false);
  });
});

describe('parseV1DateTime', () => {
  it('reads YYYY-MM-DD HH:MM:SS as UTC', () => {
    expect(parseV1DateTime('2027-01-31 23:59:59')?.toISOString()).toBe('2027-01-31T23:59:59.000Z');
    expect(parseV1DateTime('2028-02-29 00:00:00')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(parseV1DateTime('0099-06-01 12:00:00')?.getUTCFullYear()).toBe(99);
  });

  it('refuses other shapes and instants the calendar does not have', () => {
    for (const text of [
      '2027-01-31T23:59:59',
      '2027-01-31 23:59:59Z',
      '2027-01-31 23:59',
      '2027-1-31 23:59:59',
      '2027-01-31  23:59:59',
      '2027-02-29 00:00:00',
      '2027-04-31 00:00:00',
      '2027-13-01 00:00:00',
      '2027-01-31 24:00:00',
      '2027-01-31 23:60:00',
      '2027-01-31 23:59:60',
      '',
    ]) {
      expect(parseV1DateTime(text)).toBeNull();
    }
  });
});
