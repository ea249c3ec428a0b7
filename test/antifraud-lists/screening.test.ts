import { screenPayment, type PaymentSubject } from '../../services/payments/antifraud-screen';
import { cardFingerprintKey } from '../../api/secrets/card-fingerprint-key';
import { secretsKey } from '../../services/secrets/secrets-key';
import { cardFingerprint } from '../../domain/card-fingerprint';
import { setAntifraudEnabled } from '../../scripts/operator/antifraud';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

async function createList(field: string, action: 'ALLOW' | 'BLOCK'): Promise<string> {
  const res = await platform.call('/v2/antifraud-lists/create', { name: `${field} ${action}`, field, action });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function addItem(listId: string, fieldValue: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await platform.call('/v2/antifraud-lists/create-item', { list_id: listId, field_value: fieldValue, ...extra });
  expect(res.status).toBe(200);
  return res.body.id;
}

let counter = 0;

/** A payment matching nothing: each test adds the one value it is about. */
function payment(overrides: Partial<PaymentSubject> = {}): PaymentSubject {
  counter++;
  return {
    accountId: platform.accountId,
    customerId: `cust_clean${counter}`,
    instrumentId: `pi_clean${counter}`,
    fingerprint: counter.toString(16).padStart(43, '0'),
    ...overrides,
  };
}

const screen = (subject: PaymentSubject, at = new Date()) => screenPayment(platform.db, subject, at);

describe('screenPayment with items created through the API', () => {
  it('passes a payment that matches no item', async () => {
    await addItem(await createList('CUSTOMER_EMAIL', 'BLOCK'), 'someone.else@example.com');
    expect(await screen(payment({ customerEmail: 'clean@example.com', ipAddress: '192.0.2.1', cardholder: 'Clean Person' }))).toEqual({
      outcome: 'PASS',
    });
  });

  it.each([
    ['IP_ADDRESS', '2001:db8::7', { ipAddress: '2001:DB8:0:0:0:0:0:7' }],
    ['IP_ADDRESS', '203.0.113.9', { ipAddress: '::ffff:203.0.113.9' }],
    ['CUSTOMER_EMAIL', ' Fraud@Example.COM', { customerEmail: 'fraud@example.com ' }],
    ['CUSTOMER_ID', 'cust_blocked1', { customerId: 'cust_blocked1' }],
    ['CARDHOLDER', '  john   SMITH ', { cardholder: 'John Smith' }],
    ['CARD_ID', 'pi_blocked1', { instrumentId: 'pi_blocked1' }],
  ] as const)('blocks on a %s item %p', async (field, value, overrides) => {
    const listId = await createList(field, 'BLOCK');
    const itemId = await addItem(listId, value);
    expect(await screen(payment(overrides))).toEqual({ outcome: 'BLOCKED', listId, itemId, field });
  });

  it('blocks on the fingerprint of the card, whatever instrument carries it, and case-sensitively', async () => {
    const fingerprint = cardFingerprint(await cardFingerprintKey(platform.db, platform.accountId, secretsKey()), '4000000000000002');
    const listId = await createList('CARD_ID', 'BLOCK');
    const itemId = await addItem(listId, fingerprint);
    expect(await screen(payment({ fingerprint }))).toEqual({ outcome: 'BLOCKED', listId, itemId, field: 'CARD_ID' });
    const other = fingerprint.replace(/[a-z]/, (c) => c.toUpperCase());
    expect(await screen(payment({ fingerprint: other }))).toEqual({ outcome: 'PASS' });
  });

  it('lets an ALLOW item win over a BLOCK item', async () => {
    const blockList = await createList('IP_ADDRESS', 'BLOCK');
    await addItem(blockList, '198.51.100.23');
    const subject = payment({ ipAddress: '198.51.100.23', customerEmail: 'VIP@example.com' });
    expect((await screen(subject)).outcome).toBe('BLOCKED');

    const allowList = await createList('CUSTOMER_EMAIL', 'ALLOW');
    await addItem(allowList, 'vip@example.com');
    expect(await screen(subject)).toEqual({ outcome: 'ALLOWED', listId: allowList, field: 'CUSTOMER_EMAIL' });
  });

  it('ignores an item once its expired_at has passed', async () => {
    const listId = await createList('CUSTOMER_ID', 'BLOCK');
    const expiresAt = new Date(Date.now() + 3600_000);
    await addItem(listId, 'cust_temporary', { expired_at: expiresAt.toISOString() });
    const subject = payment({ customerId: 'cust_temporary' });
    expect((await screen(subject, new Date(expiresAt.getTime() - 1))).outcome).toBe('BLOCKED');
    expect((await screen(subject, expiresAt)).outcome).toBe('PASS');
    expect((await screen(subject, new Date(expiresAt.getTime() + 3600_000))).outcome).toBe('PASS');
  });

  it('stops blocking once the item is deleted', async () => {
    const listId = await createList('CARDHOLDER', 'BLOCK');
    const itemId = await addItem(listId, 'Mallory Example');
    const subject = payment({ cardholder: 'MALLORY  example' });
    expect((await screen(subject)).outcome).toBe('BLOCKED');
    expect((await platform.call('/v2/antifraud-lists/delete-item', { id: itemId })).status).toBe(200);
    expect(await screen(subject)).toEqual({ outcome: 'PASS' });
  });

  it('applies a list’s new action to the next payment', async () => {
    const listId = await createList('CARD_ID', 'BLOCK');
    await addItem(listId, 'pi_switched');
    const subject = payment({ instrumentId: 'pi_switched' });
    expect((await screen(subject)).outcome).toBe('BLOCKED');
    expect((await platform.call('/v2/antifraud-lists/update', { id: listId, action: 'ALLOW' })).status).toBe(200);
    expect(await screen(subject)).toEqual({ outcome: 'ALLOWED', listId, field: 'CARD_ID' });
  });

  it('matches a value only on the list’s own field', async () => {
    const listId = await createList('CUSTOMER_ID', 'BLOCK');
    await addItem(listId, 'cust_fieldbound');
    expect((await screen(payment({ instrumentId: 'cust_fieldbound' }))).outcome).toBe('PASS');
    expect((await screen(payment({ customerId: 'cust_fieldbound' }))).outcome).toBe('BLOCKED');
  });

  it('does not screen while antifraud is disabled for the account', async () => {
    const listId = await createList('IP_ADDRESS', 'BLOCK');
    await addItem(listId, '192.0.2.200');
    const subject = payment({ ipAddress: '192.0.2.200' });
    await setAntifraudEnabled(platform.db, platform.accountId, false);
    try {
      expect(await screen(subject)).toEqual({ outcome: 'PASS' });
    } finally {
      await setAntifraudEnabled(platform.db, platform.accountId, true);
    }
    expect((await screen(subject)).outcome).toBe('BLOCKED');
  });
});
