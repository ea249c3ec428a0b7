import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

async function addKeys(count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { row } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name, permissions: ['invoices:get'] });
    ids.push(row.id);
  }
  return ids;
}

describe('keyset pagination', () => {
  it('walks every row exactly once, newest first, while rows are inserted between pages', async () => {
    const initial = await addKeys(25, 'paged');
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await platform.call('/v2/api-keys/list', {
        filters: { name: { operator: 'EQ', value: 'paged' } },
        pagination: { page_size: 7, ...(token ? { next_page_token: token } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.body.pagination.page_size).toBe(7);
      seen.push(...res.body.items.map((k: { id: string }) => k.id));
      token = res.body.pagination.next_page_token;
      pages++;
      if (pages === 1) await addKeys(5, 'paged');
    } while (token);

    expect(pages).toBe(4);
    expect(seen).toEqual([...initial].reverse());
  });

  it('answers an empty next_page_token on the last page', async () => {
    await addKeys(3, 'short');
    const res = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'EQ', value: 'short' } }, pagination: { page_size: 3 } });
    expect(res.body.items).toHaveLength(3);
    expect(res.body.pagination.next_page_token).toBe('');
  });

  it('refuses a token from other filters or a forged one', async () => {
    await addKeys(3, 'bound');
    const first = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'EQ', value: 'bound' } }, pagination: { page_size: 1 } });
    const token = first.body.pagination.next_page_token;
    const reused = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'EQ', value: 'paged' } }, pagination: { page_size: 1, next_page_token: token } });
    expect(reused.status).toBe(400);
    expect(reused.body.context.constraints['pagination.next_page_token'].type).toBe('FORMAT');
    const forged = await platform.call('/v2/api-keys/list', { pagination: { page_size: 1, next_page_token: 'garbage!' } });
    expect(forged.status).toBe(400);
  });
});

describe('filters', () => {
  it('applies EQ, NEQ, IN (array or comma-separated), CONTAINS and RANGE', async () => {
    const names = async (filters: unknown) => {
      const res = await platform.call('/v2/api-keys/list', { filters, pagination: { page_size: 100 } });
      expect(res.status).toBe(200);
      return new Set(res.body.items.map((k: { name: string }) => k.name));
    };
    await addKeys(1, 'Alpha filter');
    await addKeys(1, 'Beta filter');
    const boundary = new Date().toISOString();
    await addKeys(1, 'Gamma filter');

    expect(await names({ name: { operator: 'EQ', value: 'Alpha filter' } })).toEqual(new Set(['Alpha filter']));
    expect((await names({ name: { operator: 'NEQ', value: 'Alpha filter' } })).has('Alpha filter')).toBe(false);
    expect(await names({ name: { operator: 'IN', value: ['Alpha filter', 'Gamma filter'] } })).toEqual(new Set(['Alpha filter', 'Gamma filter']));
    expect(await names({ name: { operator: 'IN', value: 'Alpha filter,Beta filter' } })).toEqual(new Set(['Alpha filter', 'Beta filter']));
    expect(await names({ name: { operator: 'CONTAINS', value: 'ETA FIL' } })).toEqual(new Set(['Beta filter']));
    const after = await names({ created_at: { operator: 'RANGE', value: { from: boundary } } });
    expect(after.has('Gamma filter')).toBe(true);
    expect(after.has('Beta filter')).toBe(false);
    const plain = await names({ created_at: { operator: 'RANGE', value: boundary } });
    expect(plain).toEqual(after);
    const before = await names({ created_at: { operator: 'RANGE', value: { to: boundary } } });
    expect(before.has('Beta filter')).toBe(true);
    expect(before.has('Gamma filter')).toBe(false);
  });

  it('filters by channel and by permission', async () => {
    const [one, two] = platform.channelIds;
    await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'on one', channelIds: [one], permissions: ['invoices:pay'] });
    await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'on two', channelIds: [two], permissions: ['invoices:get'] });
    const byChannel = await platform.call('/v2/api-keys/list', { filters: { channel_id: { operator: 'EQ', value: one } } });
    expect(byChannel.body.items.map((k: { name: string }) => k.name)).toEqual(['on one']);
    const byEither = await platform.call('/v2/api-keys/list', { filters: { channel_id: { operator: 'IN', value: [one, two] } } });
    expect(byEither.body.items).toHaveLength(2);
    const byPermission = await platform.call('/v2/api-keys/list', { filters: { permission: { operator: 'EQ', value: 'invoices:pay' } } });
    const holders = byPermission.body.items.map((k: { name: string }) => k.name);
    expect(holders).toContain('on one');
    expect(holders).not.toContain('on two');
  });
});
