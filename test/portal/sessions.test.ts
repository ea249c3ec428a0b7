import { formatDateTime } from '../../domain/datetime';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import { PortalClient, portalLink, portalSignIn } from './portal-client';

/** docs/portal.md, "Opening the portal" and "The portal session": links, sessions and isolation. */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

async function key(permissions: string[], channelIds?: string[]): Promise<string> {
  const created = await s.ok('api-keys/create', { name: `portal ${permissions.join(' ')}`, permissions, ...(channelIds ? { channel_ids: channelIds } : {}) });
  return created.secret;
}

describe('customer-portal-sessions/create', () => {
  it('answers a one-time link for 10 minutes, keeps only its hash, and is refused for an INACTIVE customer or another channel’s key', async () => {
    const customerId = await s.customer();
    const before = Date.now();
    const link = await portalLink(platform, customerId, { return_url: 'https://merchant.example/account', locale: 'de' });
    expect(link).toMatchObject({ id: expect.stringMatching(/^cps_/), customer_id: customerId, return_url: 'https://merchant.example/account', locale: 'de' });
    expect(link.url).toMatch(new RegExp(`^${platform.baseUrl}/portal/open/[A-Za-z0-9_-]{43}$`));
    const ttl = Date.parse(link.expires_at) - before;
    expect(ttl).toBeGreaterThan(9.9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    const token = link.url.split('/').pop()!;
    const row = await platform.db.customerPortalSession.findUniqueOrThrow({ where: { id: link.id } });
    expect(Buffer.from(row.linkHash).toString('base64url')).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);

    const badUrl = await platform.call('/v2/customer-portal-sessions/create', { customer_id: customerId, return_url: 'javascript:alert(1)' });
    expect(badUrl).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { return_url: { type: 'FORMAT', message: 'Expected an https URL, or http to localhost.' } } } } });

    await s.ok('customers/update', { id: customerId, status: 'INACTIVE' });
    const inactive = await platform.call('/v2/customer-portal-sessions/create', { customer_id: customerId });
    expect(inactive).toMatchObject({ status: 422, body: { code: 'INCOMPATIBLE_STATUS', context: { status: 'INACTIVE' } } });

    const otherChannel = await key(['customer-portal-sessions:create'], [platform.channelIds[2]]);
    const unseen = await s.customer(platform.channelIds[1]);
    const refused = await platform.call('/v2/customer-portal-sessions/create', { customer_id: unseen }, { secret: otherChannel });
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const withoutPermission = await platform.call('/v2/customer-portal-sessions/create', { customer_id: unseen }, { secret: await key(['customers:get']) });
    expect(withoutPermission).toMatchObject({ status: 403, body: { context: { required_permission: 'customer-portal-sessions:create' } } });
  });
});

describe('opening a link', () => {
  it('starts a session once: the cookie is HttpOnly, Lax and kept to /portal; a second open is refused as USED', async () => {
    const customerId = await s.customer();
    const link = await portalLink(platform, customerId);
    const customer = new PortalClient(platform);
    const first = await customer.open(link.url);
    expect(first).toMatchObject({ status: 303, location: '/portal/' });
    expect(first.setCookie).toMatch(/^bp_portal=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Lax$/);

    const replay = new PortalClient(platform);
    expect(await replay.open(link.url)).toMatchObject({ status: 303, location: '/portal/link-refused?reason=USED', setCookie: null });
    expect((await replay.post('session/me')).status).toBe(401);
    expect((await customer.post('session/me')).status).toBe(200);
  });

  it('lets one of two simultaneous opens win', async () => {
    const link = await portalLink(platform, await s.customer());
    const opens = await Promise.all(Array.from({ length: 6 }, () => new PortalClient(platform).open(link.url)));
    expect(opens.filter((open) => open.location === '/portal/')).toHaveLength(1);
    expect(opens.filter((open) => open.location === '/portal/link-refused?reason=USED')).toHaveLength(5);
  });

  it('refuses an expired link, an unknown one, and one whose customer was deactivated, naming no customer', async () => {
    const customerId = await s.customer();
    const expired = await portalLink(platform, customerId);
    await platform.db.customerPortalSession.update({ where: { id: expired.id }, data: { linkExpiresAt: new Date(Date.now() - 1) } });
    expect(await new PortalClient(platform).open(expired.url)).toMatchObject({ location: '/portal/link-refused?reason=EXPIRED', setCookie: null });

    expect(await new PortalClient(platform).open(`${platform.baseUrl}/portal/open/${'A'.repeat(43)}`)).toMatchObject({ location: '/portal/link-refused?reason=INVALID' });

    const removed = await portalLink(platform, customerId);
    await s.ok('customers/update', { id: customerId, status: 'INACTIVE' });
    expect(await new PortalClient(platform).open(removed.url)).toMatchObject({ location: '/portal/link-refused?reason=CUSTOMER_REMOVED', setCookie: null });
  });
});

describe('a portal session', () => {
  it('sees its own customer only: another customer’s invoice, card or subscription is answered as absent', async () => {
    const { customerId: mine, instrumentId: myCard } = await s.payer();
    const { customerId: theirs, instrumentId: theirCard } = await s.payer();
    const myInvoice = await s.openInvoice(mine, { amount: 1_000 });
    const theirInvoice = await s.openInvoice(theirs, { amount: 2_000 });
    const priceId = await s.price(500);
    const theirSubscription = await s.ok('subscriptions/create', { customer_id: theirs, line_items: [{ product_price_id: priceId, quantity: 1 }] });

    const portal = await portalSignIn(platform, mine);
    const invoices = await portal.ok('invoices/list');
    expect(invoices.data.map((invoice: { id: string }) => invoice.id)).toEqual([myInvoice.id]);
    expect((await portal.ok('subscriptions/list')).data).toEqual([]);
    expect((await portal.ok('payment-instruments/list')).data.map((card: { id: string }) => card.id)).toEqual([myCard]);

    const notFound = { status: 404, body: { code: 'NOT_FOUND' } };
    expect(await portal.post('invoices/pay', { id: theirInvoice.id, payment_instrument_id: myCard })).toMatchObject(notFound);
    expect(await portal.post('invoices/pay', { id: myInvoice.id, payment_instrument_id: theirCard })).toMatchObject(notFound);
    expect(await portal.post('payment-instruments/set-default', { id: theirCard })).toMatchObject(notFound);
    expect(await portal.post('payment-instruments/remove', { id: theirCard })).toMatchObject(notFound);
    expect(await portal.post('subscriptions/cancel', { id: theirSubscription.id })).toMatchObject(notFound);
    expect(await portal.post('subscriptions/preview', { id: theirSubscription.id })).toMatchObject(notFound);
    expect(await portal.post('subscriptions/undo-cancel', { id: theirSubscription.id })).toMatchObject(notFound);
    // The same answer as an id that exists nowhere: a guess learns nothing.
    const nowhere = await portal.post('invoices/pay', { id: 'inv_01jdv3s4e7g1j5m8q2t6w0y3ef', payment_instrument_id: myCard });
    expect(nowhere.status).toBe(404);

    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: theirInvoice.id } })).status).toBe('OPEN');
    expect((await s.get(theirSubscription.id)).cancellation_info).toBeUndefined();
    expect((await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: theirCard } })).status).toBe('ACTIVE');
  });

  it('needs the CSRF token for every change, refuses other sites’ requests, and ends on sign-out, after 30 idle minutes or when the customer is deactivated', async () => {
    const customerId = await s.customer();
    const portal = await portalSignIn(platform, customerId, { return_url: 'https://merchant.example/back' });
    expect(await portal.post('billing-details/update', { email: 'new@example.com' }, { csrf: false })).toMatchObject({ status: 403, body: { context: { header: 'x-csrf-token' } } });
    expect(await portal.post('session/me', {}, { headers: { 'sec-fetch-site': 'cross-site' } })).toMatchObject({ status: 403 });
    const other = await portalSignIn(platform, await s.customer());
    expect((await portal.post('billing-details/update', { email: 'new@example.com' }, { csrf: other.csrf })).status).toBe(403);
    expect((await s.ok('customers/get', { id: customerId })).email).toBe('payer@example.com');

    const ended = await portal.ok('session/end');
    expect(ended).toEqual({ return_url: 'https://merchant.example/back' });
    expect(await portal.post('session/me')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });

    const idle = await portalSignIn(platform, customerId);
    await platform.db.customerPortalSession.updateMany({ where: { customerId, endedAt: null }, data: { lastSeenAt: new Date(Date.now() - 30 * 60_000 - 1_000) } });
    expect((await idle.post('session/me')).status).toBe(401);

    const live = await portalSignIn(platform, customerId);
    const me = await live.ok('session/me');
    expect(Date.parse(me.session_expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(me.session_expires_at).toBe(formatDateTime(new Date(me.session_expires_at)));
    await s.ok('customers/update', { id: customerId, status: 'INACTIVE' });
    expect((await live.post('session/me')).status).toBe(401);
  });

  it('shows the customer the /v2 objects without the merchant’s own notes and references', async () => {
    const customerId = (await s.ok('customers/create', { type: 'INDIVIDUAL', email: 'noted@example.com', merchant_customer_id: 'crm-4711', metadata: { risk: 'watch' } })).id;
    await s.ok('invoices/finalize', {
      id: (await s.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 100, description: 'x', quantity: 1 }], merchant_reference: 'deal-9', metadata: { note: 'discounted' } })).id,
    });
    const portal = await portalSignIn(platform, customerId);
    const me = await portal.ok('session/me');
    const invoices = await portal.ok('invoices/list');
    expect(me.customer.email).toBe('noted@example.com');
    expect(invoices.data).toHaveLength(1);
    for (const answer of [me, invoices]) {
      const text = JSON.stringify(answer);
      for (const hidden of ['crm-4711', 'watch', 'deal-9', 'discounted', 'metadata', 'merchant_reference', 'merchant_customer_id']) expect(text).not.toContain(hidden);
    }
  });

  it('cannot reach a /v2 operation with its cookie, nor the dashboard', async () => {
    const portal = await portalSignIn(platform, await s.customer());
    const v2 = await platform.call('/v2/customers/list', {}, { secret: null, headers: { cookie: `bp_portal=${portal.cookie}`, 'x-csrf-token': portal.csrf! } });
    expect(v2.status).toBe(401);
    expect((await portal.post('customers/list')).status).toBe(404);
  });
});
