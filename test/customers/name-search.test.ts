import { Prisma } from '../../generated/prisma/client';
import { newId } from '../../domain/ids';
import { namePrefixQuery } from '../../services/customers/name-search';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
const ids: Record<string, string> = {};
/** Customers named "Zed Many n", all INACTIVE but every 150th: more matches than one chunk of the name search. */
const many: string[] = [];
const MANY = 450;

beforeAll(async () => {
  const make = async (name: string, body: Record<string, unknown>, secret?: string) => {
    const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: `${name}@example.com`, channel_id: platform.channelIds[0], ...body }, { secret });
    expect(res.status).toBe(200);
    ids[name] = res.body.id;
  };
  const now = Date.now();
  const rows = Array.from({ length: MANY }, (_, n) => ({
    id: newId('customer', now - 60_000 + n),
    accountId: platform.accountId,
    channelId: platform.channelIds[0],
    type: 'INDIVIDUAL',
    email: `zed${n}@example.com`,
    firstName: 'Zed',
    lastName: `Many ${n}`,
    tax: { taxability: 'TAXABLE' },
    status: n % 150 === 0 ? 'ACTIVE' : 'INACTIVE',
    createdAt: new Date(now - 60_000 + n),
    updatedAt: new Date(now - 60_000 + n),
  }));
  await platform.db.customer.createMany({ data: rows });
  many.push(...rows.map((row) => row.id));

  await make('ada', { first_name: 'Ada', last_name: 'Lovelace' });
  await make('adam', { first_name: 'Adam', last_name: 'Smith', channel_id: platform.channelIds[1] });
  await make('adaptive', { type: 'BUSINESS', business_details: { name: 'Adaptive Systems GmbH' } });
  await make('grace', { first_name: 'Grace', last_name: 'Hopper' });
  await make('odd', { first_name: '100%_Real', last_name: 'Name' });
  await make('elodie', { first_name: 'Élodie', last_name: 'Durand' });
  const other = await createAccount(platform.db, 'Other');
  const otherKey = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
  const channel = await createChannel(platform.db, other.id, 'Web');
  await make('otherAda', { first_name: 'Ada', last_name: 'Elsewhere', channel_id: channel.id }, otherKey.secret);
});

const list = (body: Record<string, unknown>) => platform.call('/v2/customers/list', body);
async function named(value: string, more: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): Promise<string[]> {
  const res = await list({ filters: { name: { operator: 'STARTS_WITH', value }, ...more }, ...rest });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items.map((c: { id: string }) => c.id);
}

describe('customers/list name filter (an extension, docs/customers.md)', () => {
  it('matches a case-insensitive prefix of the full name, the last name or the business name, newest first', async () => {
    expect(await named('ada')).toEqual([ids.adaptive, ids.adam, ids.ada]);
    expect(await named('ADA LOV')).toEqual([ids.ada]);
    expect(await named('love')).toEqual([ids.ada]);
    expect(await named('smi')).toEqual([ids.adam]);
    expect(await named('adaptive sys')).toEqual([ids.adaptive]);
    expect(await named('  hopper ')).toEqual([ids.grace]);
    expect(await named('élo')).toEqual([ids.elodie]);
    expect(await named('ÉLODIE D')).toEqual([ids.elodie]);
  });

  it('is a prefix, not a substring, and takes % _ and \\ literally', async () => {
    expect(await named('lace')).toEqual([]);
    expect(await named('gmbh')).toEqual([]);
    expect(await named('100%_')).toEqual([ids.odd]);
    expect(await named('1%')).toEqual([]);
    expect(await named('10_')).toEqual([]);
    expect(await named('%')).toEqual([]);
    expect(await named('\\')).toEqual([]);
  });

  it('combines with the other filters and the channel', async () => {
    expect(await named('ada', { type: { operator: 'EQ', value: 'BUSINESS' } })).toEqual([ids.adaptive]);
    expect(await named('ada', { email: { operator: 'CONTAINS', value: 'adam@' } })).toEqual([ids.adam]);
    expect(await named('ada', {}, { channel_id: platform.channelIds[0] })).toEqual([ids.adaptive, ids.ada]);
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'bound', channelIds: [platform.channelIds[1]] });
    const res = await platform.call('/v2/customers/list', { filters: { name: { operator: 'STARTS_WITH', value: 'ada' } } }, { secret: bound.secret });
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([ids.adam]);
  });

  it('pages across the matches, also when the other filters leave few of many', async () => {
    const first = await list({ filters: { name: { operator: 'STARTS_WITH', value: 'ada' } }, pagination: { page_size: 2 } });
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual([ids.adaptive, ids.adam]);
    const second = await list({ filters: { name: { operator: 'STARTS_WITH', value: 'ada' } }, pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual([ids.ada]);
    expect(second.body.pagination).toEqual({ page_size: 2, next_page_token: '' });

    // 450 name matches, 3 of them ACTIVE and far apart: each page reads past whole chunks of inactive ones.
    const active = many.filter((_, n) => n % 150 === 0).reverse();
    const filters = { name: { operator: 'STARTS_WITH', value: 'zed many' }, status: { operator: 'EQ', value: 'ACTIVE' } };
    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const res = await list({ filters, pagination: { page_size: 2, ...(token ? { next_page_token: token } : {}) } });
      expect(res.status).toBe(200);
      pages.push(res.body.items.map((c: { id: string }) => c.id));
      token = res.body.pagination.next_page_token || undefined;
    } while (token);
    expect(pages).toEqual([active.slice(0, 2), active.slice(2)]);
    expect(await named('zed many 44', {}, { pagination: { page_size: 100 } })).toEqual([...many.slice(440).reverse(), many[44]]);

    const otherFilters = await list({ filters: { name: { operator: 'STARTS_WITH', value: 'zed' } }, pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect({ status: otherFilters.status, fields: Object.keys(otherFilters.body.context.constraints) }).toEqual({ status: 400, fields: ['pagination.next_page_token'] });
  });

  it('keeps to the key’s account', async () => {
    expect(await named('ada elsewhere')).toEqual([]);
  });

  it.each([
    ['an operator other than STARTS_WITH', { operator: 'CONTAINS', value: 'ada' }, 'filters.name.operator', 'ENUM'],
    ['an empty value', { operator: 'STARTS_WITH', value: '' }, 'filters.name.value', 'MIN'],
    ['only spaces', { operator: 'STARTS_WITH', value: '   ' }, 'filters.name.value', 'MIN'],
    ['over 200 characters', { operator: 'STARTS_WITH', value: 'a'.repeat(201) }, 'filters.name.value', 'MAX'],
    ['no value', { operator: 'STARTS_WITH' }, 'filters.name.value', 'REQUIRED'],
  ])('400 VALIDATION with context for %s', async (_, name, field, type) => {
    const res = await list({ filters: { name } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION' });
    expect(res.body.context.constraints[field]).toMatchObject({ type });
  });

  it('is answered from the name indexes, not by reading the account’s customers', async () => {
    await platform.db.$executeRaw`ANALYZE customers`;
    const plan = await platform.db.$transaction(async (tx) => {
      // The table is small enough that a sequential scan is cheapest; forbid it to see which indexes fit.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const query = namePrefixQuery({ accountId: platform.accountId, channelIds: null, prefix: 'Ada' }, undefined, 21);
      const rows = await tx.$queryRaw<Array<{ 'QUERY PLAN': string }>>(Prisma.sql`EXPLAIN ${query}`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('customers_account_id_full_name_prefix_idx');
    expect(plan).toContain('customers_account_id_last_name_prefix_idx');
    expect(plan).toContain('customers_account_id_business_name_prefix_idx');
    expect(plan).not.toContain('customers_account_id_id_idx');
  });
});
