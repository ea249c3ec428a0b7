import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
const ids: Record<string, string> = {};
let startedAt: string;
let midpoint: string;

beforeAll(async () => {
  startedAt = new Date().toISOString();
  const make = async (name: string, body: Record<string, unknown>) => {
    const res = await platform.call('/v2/customers/create', body);
    expect(res.status).toBe(200);
    ids[name] = res.body.id;
  };
  await make('ada', { type: 'INDIVIDUAL', email: 'Ada@Example.com', merchant_customer_id: 'm-1', channel_id: platform.channelIds[0] });
  await make('bob', { type: 'INDIVIDUAL', email: 'bob@example.org', merchant_customer_id: 'm-2', status: 'INACTIVE', channel_id: platform.channelIds[1] });
  await new Promise((resolve) => setTimeout(resolve, 20));
  midpoint = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await make('acme', {
    type: 'BUSINESS',
    email: 'billing@acme.example',
    merchant_customer_id: 'm-3',
    business_details: { name: 'Acme' },
    channel_id: platform.channelIds[0],
  });
  await make('zed', { type: 'INDIVIDUAL', email: 'zed@example.com', channel_id: platform.channelIds[2] });
});

async function listIds(body: Record<string, unknown>, secret?: string): Promise<string[]> {
  const res = await platform.call('/v2/customers/list', body, { secret });
  expect(res.status).toBe(200);
  return res.body.items.map((c: { id: string }) => c.id);
}

const filter = (filters: Record<string, unknown>) => listIds({ filters });

describe('customers/list', () => {
  it('lists every customer newest first', async () => {
    expect(await listIds({})).toEqual([ids.zed, ids.acme, ids.bob, ids.ada]);
  });

  it('filters by e-mail with EQ, IN and CONTAINS, case-insensitively', async () => {
    expect(await filter({ email: { operator: 'EQ', value: 'ada@example.com' } })).toEqual([ids.ada]);
    expect(await filter({ email: { operator: 'IN', value: ['ADA@example.com', 'bob@example.org'] } })).toEqual([ids.bob, ids.ada]);
    expect(await filter({ email: { operator: 'IN', value: 'zed@example.com,bob@example.org' } })).toEqual([ids.zed, ids.bob]);
    expect(await filter({ email: { operator: 'CONTAINS', value: 'EXAMPLE.COM' } })).toEqual([ids.zed, ids.ada]);
  });

  it('filters by status, merchant_customer_id, type and created_at', async () => {
    expect(await filter({ status: { operator: 'EQ', value: 'INACTIVE' } })).toEqual([ids.bob]);
    expect(await filter({ status: { operator: 'IN', value: ['ACTIVE'] } })).toEqual([ids.zed, ids.acme, ids.ada]);
    expect(await filter({ merchant_customer_id: { operator: 'EQ', value: 'm-2' } })).toEqual([ids.bob]);
    expect(await filter({ merchant_customer_id: { operator: 'IN', value: ['m-1', 'm-3'] } })).toEqual([ids.acme, ids.ada]);
    expect(await filter({ type: { operator: 'EQ', value: 'BUSINESS' } })).toEqual([ids.acme]);
    expect(await filter({ created_at: { operator: 'RANGE', value: { from: midpoint } } })).toEqual([ids.zed, ids.acme]);
    expect(await filter({ created_at: { operator: 'RANGE', value: { from: startedAt, to: midpoint } } })).toEqual([ids.bob, ids.ada]);
    expect(
      await filter({ type: { operator: 'EQ', value: 'INDIVIDUAL' }, email: { operator: 'CONTAINS', value: 'example' }, status: { operator: 'EQ', value: 'ACTIVE' } }),
    ).toEqual([ids.zed, ids.ada]);
  });

  it('refuses operators a field does not allow and unknown filter values', async () => {
    const refused = async (filters: Record<string, unknown>, path: string, type: string) => {
      const res = await platform.call('/v2/customers/list', { filters });
      expect(res.status).toBe(400);
      expect(res.body.context.constraints[path].type).toBe(type);
    };
    await refused({ email: { operator: 'NEQ', value: 'x' } }, 'filters.email.operator', 'ENUM');
    await refused({ type: { operator: 'IN', value: ['BUSINESS'] } }, 'filters.type.operator', 'ENUM');
    await refused({ status: { operator: 'EQ', value: 'DELETED' } }, 'filters.status.value', 'ENUM');
    await refused({ phone: { operator: 'EQ', value: '+1' } }, 'filters.phone', 'UNKNOWN_FIELD');
  });

  it('pages with next_page_token, bound to its filters', async () => {
    const first = await platform.call('/v2/customers/list', { pagination: { page_size: 3 } });
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual([ids.zed, ids.acme, ids.bob]);
    expect(first.body.pagination).toEqual({ page_size: 3, next_page_token: expect.any(String) });
    const second = await platform.call('/v2/customers/list', { pagination: { page_size: 3, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual([ids.ada]);
    expect(second.body.pagination.next_page_token).toBe('');
    const rebound = await platform.call('/v2/customers/list', {
      filters: { type: { operator: 'EQ', value: 'BUSINESS' } },
      pagination: { page_size: 3, next_page_token: first.body.pagination.next_page_token },
    });
    expect(rebound.status).toBe(400);
    expect(rebound.body.context.constraints['pagination.next_page_token'].type).toBe('FORMAT');
  });

  it('lists only the channels a key reaches, or the one named', async () => {
    const single = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 's', channelIds: [platform.channelIds[0]] });
    expect(await listIds({}, single.secret)).toEqual([ids.acme, ids.ada]);
    const multi = await createOperatorApiKey(platform.db, {
      accountId: platform.accountId,
      name: 'm',
      channelIds: [platform.channelIds[1], platform.channelIds[2]],
    });
    expect(await listIds({ channel_id: platform.channelIds[2] }, multi.secret)).toEqual([ids.zed]);
    expect((await platform.call('/v2/customers/list', { channel_id: platform.channelIds[0] }, { secret: multi.secret })).status).toBe(403);
    expect(await listIds({ channel_id: platform.channelIds[1] })).toEqual([ids.bob]);
  });
});
