import { openSecret } from '../../domain/secret-box';
import { webhookSecretPurpose } from '../../domain/webhook-signature';
import { secretsKey } from '../../services/secrets/secrets-key';
import { EVENT_NAMES, EVENT_TYPES } from '../../domain/event-catalogue';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
let n = 0;
const url = () => `https://hooks.example.com/endpoint/${++n}`;
const create = (body: Record<string, unknown>, secret?: string) =>
  platform.call('/v2/webhooks/create', { event_types: ['INVOICE_PAID'], ...body }, secret ? { secret } : {});

describe('webhooks/create', () => {
  it('creates an INACTIVE endpoint and shows its wsec_ secret once, stored sealed', async () => {
    const target = url();
    const res = await create({ url: target, description: 'Orders service', event_types: ['INVOICE_PAID', 'CUSTOMER_CREATED'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whep_/),
      url: target,
      description: 'Orders service',
      status: 'INACTIVE',
      event_types: ['INVOICE_PAID', 'CUSTOMER_CREATED'],
      created_at: expect.stringMatching(DATE_TIME),
      updated_at: expect.stringMatching(DATE_TIME),
      secret: expect.stringMatching(/^wsec_[A-Za-z0-9_-]{43}$/),
    });
    const got = await platform.call('/v2/webhooks/get', { id: res.body.id });
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toEqual({ ...res.body, secret: undefined });

    const [record] = await platform.db.webhookEndpointSecret.findMany({ where: { endpointId: res.body.id } });
    expect(record!.id).toMatch(/^whsr_/);
    expect(Buffer.from(record!.sealed).includes(Buffer.from(res.body.secret))).toBe(false);
    expect(openSecret(secretsKey(), webhookSecretPurpose(record!.id), record!.sealed)).toBe(res.body.secret);
  });

  it('takes every one of the 27 event types, and only those', async () => {
    const all = EVENT_NAMES.map((name) => EVENT_TYPES[name]);
    expect(all).toHaveLength(27);
    expect((await create({ url: url(), event_types: all })).body.event_types).toEqual(all);
    const unknown = await create({ url: url(), event_types: ['INVOICE_EXPLODED'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.context.constraints['event_types[0]'].type).toBe('ENUM');
    expect((await create({ url: url(), event_types: [] })).status).toBe(400);
    expect((await create({ url: url(), event_types: ['INVOICE_PAID', 'INVOICE_PAID'] })).status).toBe(400);
  });

  it('wants https, or http to a loopback host; no credentials, no fragment', async () => {
    expect((await create({ url: 'http://hooks.example.com/x' })).status).toBe(400);
    expect((await create({ url: 'ftp://hooks.example.com/x' })).status).toBe(400);
    expect((await create({ url: 'not a url' })).status).toBe(400);
    expect((await create({ url: 'https://user:pw@hooks.example.com/x' })).status).toBe(400);
    expect((await create({ url: 'https://hooks.example.com/x#frag' })).status).toBe(400);
    expect((await create({ url: 'http://127.0.0.1:9/hooks' })).status).toBe(200);
    expect((await create({ url: 'http://localhost:9/hooks' })).status).toBe(200);
  });

  it('refuses internal address literals with 400, loopback too unless the operator allows it', async () => {
    const internal = [
      'https://10.0.0.1/hooks',
      'https://172.16.5.4/hooks',
      'https://192.168.1.1/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/hooks',
      'https://0.0.0.0/hooks',
      'https://0/hooks',
      'https://167772161/hooks',
      'https://0xa9fea9fe/hooks',
      'https://[::]/hooks',
      'https://[fd00::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://[::ffff:169.254.169.254]/hooks',
      'https://224.0.0.1/hooks',
    ];
    const loopback = ['https://127.0.0.1/hooks', 'http://127.0.0.1:9/x', 'http://2130706433/hooks', 'https://0x7f.1/hooks', 'https://[::1]/hooks', 'https://[::ffff:127.0.0.1]/hooks', 'http://localhost:9/y', 'https://api.localhost/hooks'];
    const { body: endpoint } = await create({ url: url() });
    const refusals = async (urls: string[]) => {
      const messages: string[] = [];
      for (const target of urls) {
        const created = await create({ url: target });
        const patched = await platform.call('/v2/webhooks/patch', { id: endpoint.id, url: target });
        for (const res of [created, patched]) {
          expect([target, res.status]).toEqual([target, 400]);
          expect(res.body).toMatchObject({ code: 'VALIDATION', context: { constraints: { url: { type: 'INVALID' } } } });
          messages.push(res.body.context.constraints.url.message);
        }
      }
      return messages;
    };

    // Two messages per URL, create's and patch's.
    const messages = await refusals(internal);
    expect(messages[0]).toBe('Webhook URLs must lead to a public address; 10.0.0.1 is a private network address.');
    expect(messages[6]).toMatch(/169\.254\.169\.254 is a link-local address/);
    expect(messages[14]).toBe(messages[0]);

    const allowed = process.env.WEBHOOK_ALLOW_LOOPBACK;
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    try {
      expect((await refusals(loopback)).every((m) => /is a loopback address\. Loopback receivers are accepted only where the operator allows them/.test(m))).toBe(true);
      const plain = await create({ url: 'http://hooks.example.com/x' });
      expect(plain.body.context.constraints.url).toEqual({ type: 'FORMAT', message: 'Use https.' });
    } finally {
      process.env.WEBHOOK_ALLOW_LOOPBACK = allowed;
    }
    expect((await create({ url: 'https://[::1]:8443/hooks' })).status).toBe(200);
    expect((await create({ url: 'http://2130706433:19/hooks' })).body.url).toBe('http://127.0.0.1:19/hooks');
    expect((await create({ url: 'https://[2606:4700:4700::1111]/hooks' })).status).toBe(200);
    expect((await create({ url: 'https://93.184.216.34/hooks' })).status).toBe(200);
  });

  it('subscribes an endpoint created without event_types to every type there is', async () => {
    const res = await platform.call('/v2/webhooks/create', { url: url() });
    expect(res.status).toBe(200);
    expect(res.body.event_types).toEqual(EVENT_NAMES.map((name) => EVENT_TYPES[name]));
    expect((await platform.call('/v2/webhooks/get', { id: res.body.id })).body.event_types).toHaveLength(27);
  });

  it('refuses a second live endpoint with the same URL: 422 ENDPOINT_ALREADY_EXISTS', async () => {
    const first = await create({ url: 'https://Dup.Example.com:443/hooks' });
    expect(first.body.url).toBe('https://dup.example.com/hooks');
    const again = await create({ url: 'https://dup.example.com/hooks', event_types: ['CUSTOMER_CREATED'] });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'ENDPOINT_ALREADY_EXISTS', context: { endpoint_id: first.body.id } });

    await platform.call('/v2/webhooks/delete', { id: first.body.id });
    expect((await create({ url: 'https://dup.example.com/hooks' })).status).toBe(200);
  });

  it('lets exactly one of concurrent creates of one URL win', async () => {
    const target = url();
    const results = await Promise.all(Array.from({ length: 6 }, () => create({ url: target })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    expect(await platform.db.webhookEndpoint.count({ where: { url: target, deletedAt: null } })).toBe(1);
  });
});

describe('webhooks/patch', () => {
  it('activates, changes the subscribed types and the description, and deactivates', async () => {
    const { body: endpoint } = await create({ url: url(), description: 'old' });
    const active = await platform.call('/v2/webhooks/patch', { id: endpoint.id, status: 'ACTIVE', event_types: ['CUSTOMER_UPDATED'] });
    expect(active.body).toMatchObject({ status: 'ACTIVE', event_types: ['CUSTOMER_UPDATED'], description: 'old' });
    const cleared = await platform.call('/v2/webhooks/patch', { id: endpoint.id, description: null, status: 'INACTIVE' });
    expect(cleared.body.status).toBe('INACTIVE');
    expect(cleared.body).not.toHaveProperty('description');
  });

  it('refuses an empty patch, DISABLED as a status to set, and a URL another endpoint has', async () => {
    const a = (await create({ url: url() })).body;
    const b = (await create({ url: url() })).body;
    expect((await platform.call('/v2/webhooks/patch', { id: a.id })).status).toBe(400);
    expect((await platform.call('/v2/webhooks/patch', { id: a.id, status: 'DISABLED' })).status).toBe(400);
    const taken = await platform.call('/v2/webhooks/patch', { id: a.id, url: b.url });
    expect(taken.status).toBe(422);
    expect(taken.body.code).toBe('ENDPOINT_ALREADY_EXISTS');
    expect((await platform.call('/v2/webhooks/patch', { id: a.id, url: a.url })).status).toBe(200);
  });
});

describe('webhooks/delete, get and list', () => {
  it('a deleted endpoint is 404 and left out of lists', async () => {
    const { body: endpoint } = await create({ url: url() });
    expect((await platform.call('/v2/webhooks/delete', { id: endpoint.id })).body).toEqual({ id: endpoint.id, deleted: true });
    expect((await platform.call('/v2/webhooks/get', { id: endpoint.id })).status).toBe(404);
    expect((await platform.call('/v2/webhooks/patch', { id: endpoint.id, status: 'ACTIVE' })).status).toBe(404);
    expect((await platform.call('/v2/webhooks/delete', { id: endpoint.id })).status).toBe(404);
    const listed = await platform.call('/v2/webhooks/list', { pagination: { page_size: 100 } });
    expect(listed.body.items.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    expect(await platform.db.webhookEndpointSecret.count({ where: { endpointId: endpoint.id, revokedAt: null } })).toBe(0);
  });

  it('lists newest first, page by page, filtered by status', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await create({ url: url() })).body.id);
    await platform.call('/v2/webhooks/patch', { id: made[1], status: 'ACTIVE' });
    const first = await platform.call('/v2/webhooks/list', { pagination: { page_size: 2 } });
    expect(first.body.items.map((e: { id: string }) => e.id)).toEqual([made[2], made[1]]);
    const second = await platform.call('/v2/webhooks/list', { pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items[0].id).toBe(made[0]);
    const active = await platform.call('/v2/webhooks/list', { filters: { status: { operator: 'EQ', value: 'ACTIVE' } }, pagination: { page_size: 100 } });
    expect(active.body.items.map((e: { id: string }) => e.id)).toContain(made[1]);
    expect(active.body.items.every((e: { status: string }) => e.status === 'ACTIVE')).toBe(true);
  });
});

describe('channels', () => {
  it('a channel-bound key creates endpoints of its channel and sees no others', async () => {
    const [one, two] = platform.channelIds;
    const key = await platform.call('/v2/api-keys/create', {
      name: 'shop one',
      channel_ids: [one],
      permissions: ['webhooks:create', 'webhooks:get', 'webhooks:list'],
    });
    const bound = key.body.secret as string;
    const own = await create({ url: url() }, bound);
    expect(own.body.channel_id).toBe(one);
    const elsewhere = await create({ url: url(), channel_id: two }, bound);
    expect(elsewhere.status).toBe(403);

    const accountWide = (await create({ url: url() })).body;
    expect(accountWide).not.toHaveProperty('channel_id');
    const ofTwo = (await create({ url: url(), channel_id: two })).body;
    expect(ofTwo.channel_id).toBe(two);
    for (const hidden of [accountWide, ofTwo]) {
      expect((await platform.call('/v2/webhooks/get', { id: hidden.id }, { secret: bound })).status).toBe(404);
    }
    const listed = await platform.call('/v2/webhooks/list', { pagination: { page_size: 100 } }, { secret: bound });
    expect(listed.body.items.map((e: { id: string }) => e.id)).toEqual([own.body.id]);
    expect((await create({ url: url(), channel_id: 'chn_nope' })).body.code).toBe('CHANNEL_NOT_FOUND');
  });
});

describe('webhooks/rotate-key', () => {
  it('returns a new secret in rotate_secret and keeps the previous one for the rotation period', async () => {
    const { body: endpoint } = await create({ url: url() });
    const rotated = await platform.call('/v2/webhooks/rotate-key', { id: endpoint.id, rotation_period: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.rotate_secret).toMatch(/^wsec_/);
    expect(rotated.body.rotate_secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.rotate_at) - Date.parse(rotated.body.updated_at)).toBe(3600 * 1000);
    const live = await platform.db.webhookEndpointSecret.findMany({ where: { endpointId: endpoint.id, revokedAt: null }, orderBy: { id: 'asc' } });
    expect(live.map((s) => s.expiresAt !== null)).toEqual([true, false]);

    // A second rotation during the overlap retires the oldest secret at once: two at most.
    const again = await platform.call('/v2/webhooks/rotate-key', { id: endpoint.id, rotation_period: 0 });
    expect(again.body).not.toHaveProperty('rotate_at');
    const after = await platform.db.webhookEndpointSecret.findMany({ where: { endpointId: endpoint.id, revokedAt: null } });
    expect(after).toHaveLength(1);
    expect(openSecret(secretsKey(), webhookSecretPurpose(after[0]!.id), after[0]!.sealed)).toBe(again.body.rotate_secret);
  });

  it('bounds the period and answers 404 for an unknown endpoint', async () => {
    const { body: endpoint } = await create({ url: url() });
    expect((await platform.call('/v2/webhooks/rotate-key', { id: endpoint.id, rotation_period: -1 })).status).toBe(400);
    expect((await platform.call('/v2/webhooks/rotate-key', { id: endpoint.id, rotation_period: 31 * 86400 })).status).toBe(400);
    expect((await platform.call('/v2/webhooks/rotate-key', { id: 'whep_unknown', rotation_period: 60 })).status).toBe(404);
  });
});

describe('webhooks/list-deliveries', () => {
  it('needs endpoint_id or event_id, and answers 404 for ones the key cannot see', async () => {
    expect((await platform.call('/v2/webhooks/list-deliveries', {})).status).toBe(400);
    expect((await platform.call('/v2/webhooks/list-deliveries', { endpoint_id: 'whep_unknown' })).status).toBe(404);
    expect((await platform.call('/v2/webhooks/list-deliveries', { event_id: 'evt_unknown' })).status).toBe(404);
  });
});

describe('reference', () => {
  it('publishes the eight webhooks operations in the OpenAPI document', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    for (const action of ['create', 'list', 'get', 'patch', 'delete', 'rotate-key', 'list-deliveries', 'redeliver']) {
      expect(document.paths).toHaveProperty([`/v2/webhooks/${action}`, 'post']);
    }
    const create = document.paths['/v2/webhooks/create'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(['url']);
    expect(document.paths['/v2/webhooks/rotate-key'].post.requestBody.content['application/json'].schema.required).toEqual(['id', 'rotation_period']);
  });
});
