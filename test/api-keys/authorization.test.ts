import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { PERMISSIONS } from '../../domain/permissions';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let existingKeyId: string;

beforeAll(async () => {
  const created = await platform.call('/v2/api-keys/create', { name: 'target', permissions: ['invoices:get'] });
  existingKeyId = created.body.id;
});

const API_KEY_PERMISSIONS = ['api-keys:create', 'api-keys:list', 'api-keys:get', 'api-keys:rotate'];

async function keyWith(permissions: string[], channelIds: string[] = []): Promise<string> {
  const { secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'matrix', permissions, channelIds });
  return secret;
}

function requestFor(operation: string): unknown {
  switch (operation) {
    case 'create':
      return { name: 'made by matrix', permissions: ['invoices:get'] };
    case 'list':
      return {};
    case 'get':
      return { id: existingKeyId };
    case 'rotate':
      return { id: existingKeyId, rotation_period: 0 };
    default:
      throw new Error(operation);
  }
}

describe('authorization matrix on api-keys operations', () => {
  const operations = ['create', 'list', 'get', 'rotate'];

  it.each(operations)('%s: an account-level key holding the permission succeeds', async (operation) => {
    const secret = await keyWith([...API_KEY_PERMISSIONS, 'invoices:get']);
    const res = await platform.call(`/v2/api-keys/${operation}`, requestFor(operation), { secret });
    expect(res.status).toBe(200);
  });

  it.each(operations)('%s: a single-channel key is refused with 403 even with every permission', async (operation) => {
    const secret = await keyWith([...API_KEY_PERMISSIONS, 'invoices:get'], [platform.channelIds[0]]);
    const res = await platform.call(`/v2/api-keys/${operation}`, requestFor(operation), { secret });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });

  it.each(operations)('%s: a multi-channel key is refused with 403', async (operation) => {
    const secret = await keyWith([...API_KEY_PERMISSIONS, 'invoices:get'], [platform.channelIds[0], platform.channelIds[1]]);
    const res = await platform.call(`/v2/api-keys/${operation}`, requestFor(operation), { secret });
    expect(res.status).toBe(403);
  });

  it.each(operations)('%s: an account-level key without that permission is refused with 403 naming it', async (operation) => {
    const secret = await keyWith(API_KEY_PERMISSIONS.filter((p) => p !== `api-keys:${operation}`).concat('invoices:get'));
    const res = await platform.call(`/v2/api-keys/${operation}`, requestFor(operation), { secret });
    expect(res.status).toBe(403);
    expect(res.body.context).toEqual({ required_permission: `api-keys:${operation}` });
  });

  it('refuses a key granting a permission it does not hold itself', async () => {
    const secret = await keyWith(['api-keys:create']);
    const res = await platform.call('/v2/api-keys/create', { name: 'escalate', permissions: ['invoices:pay'] }, { secret });
    expect(res.status).toBe(403);
    expect(res.body.context).toEqual({ permissions: ['invoices:pay'] });
  });

  it('never reaches a key of another account', async () => {
    const other = await createAccount(platform.db, 'Other account');
    const { row } = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'foreign' });
    const res = await platform.call('/v2/api-keys/get', { id: row.id });
    expect(res.status).toBe(404);
    const rotate = await platform.call('/v2/api-keys/rotate', { id: row.id, rotation_period: 10 });
    expect(rotate.status).toBe(404);
  });
});

describe('api-keys/create and get', () => {
  it('shows the secret once, stores only its hash, and the new key authenticates', async () => {
    const created = await platform.call('/v2/api-keys/create', {
      name: 'Checkout service',
      description: 'Used by checkout',
      channel_ids: [platform.channelIds[1], platform.channelIds[0]],
      permissions: ['api-keys:get'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^akey_/),
      name: 'Checkout service',
      description: 'Used by checkout',
      channel_ids: [platform.channelIds[0], platform.channelIds[1]].sort(),
      permissions: ['api-keys:get'],
      secret: expect.stringMatching(/^asec_/),
    });
    expect(created.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const fetched = await platform.call('/v2/api-keys/get', { id: created.body.id });
    expect(fetched.body).not.toHaveProperty('secret');
    const { secret, ...withoutSecret } = created.body;
    expect(fetched.body).toEqual(withoutSecret);

    const rows = await platform.db.$queryRawUnsafe<Record<string, unknown>[]>(
      'SELECT * FROM api_key_secrets WHERE api_key_id = $1',
      created.body.id,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v))).not.toContain(
      secret.slice(21),
    );

    // Bound to channels, so it may not call api-keys operations: but it is recognised (403, not 401).
    const own = await platform.call('/v2/api-keys/get', { id: created.body.id }, { secret });
    expect(own.status).toBe(403);
  });

  it('refuses channels of another account with 422 CHANNEL_NOT_FOUND and writes nothing', async () => {
    const other = await createAccount(platform.db, 'Elsewhere');
    const foreign = await createChannel(platform.db, other.id, 'foreign');
    const before = await platform.db.apiKey.count();
    const res = await platform.call('/v2/api-keys/create', { name: 'x', channel_ids: [foreign.id], permissions: ['invoices:get'] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'CHANNEL_NOT_FOUND', message: expect.any(String), context: { channel_ids: [foreign.id] } });
    expect(await platform.db.apiKey.count()).toBe(before);
  });
});

describe('a key acts only on keys within its own permissions', () => {
  async function ownerKey() {
    const { row, secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'owner' });
    return { id: row.id, secret };
  }

  it('rotate: a key holding only api-keys:rotate cannot take over the all-permissions key', async () => {
    const owner = await ownerKey();
    const weak = await keyWith(['api-keys:rotate']);
    const before = await platform.db.apiKeySecret.findMany({ where: { apiKeyId: owner.id }, orderBy: { id: 'asc' } });

    const res = await platform.call('/v2/api-keys/rotate', { id: owner.id, rotation_period: 0 }, { secret: weak });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
    expect(res.body).not.toHaveProperty('rotate_secret');
    expect(res.body.context.permissions).toEqual(PERMISSIONS.filter((p) => p !== 'api-keys:rotate'));

    // Nothing changed: the owner's secret still works, no secret was issued, no rotation recorded.
    expect(await platform.db.apiKeySecret.findMany({ where: { apiKeyId: owner.id }, orderBy: { id: 'asc' } })).toEqual(before);
    expect((await platform.db.apiKey.findUniqueOrThrow({ where: { id: owner.id } })).rotateAt).toBeNull();
    expect((await platform.call('/v2/api-keys/get', { id: owner.id }, { secret: owner.secret })).status).toBe(200);
  });

  it('rotate: a key missing one of the target’s permissions is refused, naming only that one', async () => {
    const target = await platform.call('/v2/api-keys/create', { name: 'payer', permissions: ['invoices:get', 'invoices:pay'] });
    const caller = await keyWith(['api-keys:rotate', 'invoices:get']);
    const res = await platform.call('/v2/api-keys/rotate', { id: target.body.id, rotation_period: 60 }, { secret: caller });
    expect(res.status).toBe(403);
    expect(res.body.context).toEqual({ permissions: ['invoices:pay'] });
  });

  it('rotate: a key may rotate a key holding the same or fewer permissions, itself included', async () => {
    const caller = await keyWith(['api-keys:rotate', 'invoices:get']);
    const equal = await platform.call('/v2/api-keys/create', { name: 'equal', permissions: ['invoices:get', 'api-keys:rotate'] });
    const fewer = await platform.call('/v2/api-keys/create', { name: 'fewer', permissions: ['invoices:get'] });
    for (const id of [equal.body.id, fewer.body.id]) {
      const res = await platform.call('/v2/api-keys/rotate', { id, rotation_period: 60 }, { secret: caller });
      expect(res.status).toBe(200);
      expect(res.body.rotate_secret).toMatch(/^asec_/);
    }
    const self = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'self', permissions: ['api-keys:rotate'] });
    const rotated = await platform.call('/v2/api-keys/rotate', { id: self.row.id, rotation_period: 0 }, { secret: self.secret });
    expect(rotated.status).toBe(200);
  });

  it('get and list: a weaker key sees a stronger key’s record, never anything secret', async () => {
    const owner = await ownerKey();
    const weak = await keyWith(['api-keys:get', 'api-keys:list']);
    const recordFields = ['channel_ids', 'created_at', 'id', 'name', 'permissions', 'status', 'updated_at'];

    const got = await platform.call('/v2/api-keys/get', { id: owner.id }, { secret: weak });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body).sort()).toEqual(recordFields);

    const listed = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'EQ', value: 'owner' } } }, { secret: weak });
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((k: { id: string }) => k.id === owner.id);
    expect(Object.keys(item).sort()).toEqual(recordFields);
    expect(JSON.stringify(listed.body)).not.toContain('asec_');
    expect(JSON.stringify(got.body)).not.toContain(owner.secret.slice(5, 21));
  });
});
