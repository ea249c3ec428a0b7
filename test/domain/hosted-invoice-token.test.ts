import { createHmac, randomBytes } from 'node:crypto';
import { hostedInvoiceKey, hostedInvoiceToken, invoiceIdOfHostedToken } from '../../domain/portal/hosted-invoice-token';

const urlSigningKey = randomBytes(32);
const key = hostedInvoiceKey(urlSigningKey);
const id = 'inv_01jabcdefghjkmnpqrstvwxyz0';

describe('hosted invoice tokens', () => {
  it('are the invoice id and 32 characters of an HMAC-SHA256 under a key of their own', () => {
    const token = hostedInvoiceToken(key, id);
    expect(token).toMatch(/^inv_01jabcdefghjkmnpqrstvwxyz0\.[A-Za-z0-9_-]{32}$/);
    expect(key.equals(urlSigningKey)).toBe(false);
    const withUrlSigningKey = createHmac('sha256', urlSigningKey).update(`hosted-invoice:${id}`).digest('base64url').slice(0, 32);
    expect(token.endsWith(withUrlSigningKey)).toBe(false);
    expect(invoiceIdOfHostedToken(key, token)).toBe(id);
  });

  it('name no invoice when altered, moved to another invoice, signed by another key or malformed', () => {
    const token = hostedInvoiceToken(key, id);
    const signature = token.split('.')[1]!;
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const wrong of [
      `${id}.${flipped}`,
      `inv_01jabcdefghjkmnpqrstvwxyz1.${signature}`,
      hostedInvoiceToken(hostedInvoiceKey(randomBytes(32)), id),
      id,
      `${token}A`,
      token.slice(0, -1),
      `cust_01jabcdefghjkmnpqrstvwxyz0.${signature}`,
      '',
    ]) {
      expect(invoiceIdOfHostedToken(key, wrong)).toBeUndefined();
    }
  });
});
