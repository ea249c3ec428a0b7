import { settlementFileDownloadName, settlementFileKey } from '../../domain/settlement-files';
import { storedFileUrl } from '../../api/files/stored-file-url';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createLegalEntity } from '../../scripts/operator/legal-entities';
import { usePlatform } from '../support/platform';
import { storedSettlement, type SettlementData } from './fixtures';

const platform = usePlatform();
const list = (body: unknown, secret?: string) => platform.call('/v2/settlements/list', body, secret ? { secret } : {});

/** Settlement ids by name, for readable expectations. */
const ids: Record<string, string> = {};
let leA: string;
let leB: string;

async function settlement(name: string, s: Omit<SettlementData, 'accountId'> & { accountId?: string }): Promise<void> {
  ids[name] = await storedSettlement(platform.db, { accountId: platform.accountId, ...s });
}

beforeAll(async () => {
  leA = (await createLegalEntity(platform.db, { accountId: platform.accountId, name: 'Acme GmbH', country: 'DEU' })).id;
  leB = (await createLegalEntity(platform.db, { accountId: platform.accountId, name: 'Acme SAS', country: 'FRA' })).id;
  await settlement('marchAEur', { legalEntityId: leA, currency: 'EUR', day: '2026-03-11', amount: 11_077, stored: true });
  await settlement('marchAUsd', { legalEntityId: leA, currency: 'USD', day: '2026-03-11', amount: 2_883, stored: true });
  await settlement('marchBEur', { legalEntityId: leB, currency: 'EUR', day: '2026-03-12', amount: -1_200, stored: false });
  await settlement('aprilAEur', { legalEntityId: leA, currency: 'EUR', day: '2026-04-01', amount: 500, stored: true });
  await settlement('aprilBGbp', { legalEntityId: leB, currency: 'GBP', day: '2026-04-02', amount: 7_000, stored: true });
});

const idsOf = async (filters: unknown, pagination?: unknown) => {
  const res = await list({ filters, ...(pagination ? { pagination } : {}) });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items.map((item: { id: string }) => item.id);
};
/** Newest first, as every list. */
const newestFirst = (...names: string[]) => names.map((name) => ids[name]!).sort().reverse();

describe('settlements/list (an extension, docs/settlements.md)', () => {
  it('lists the account’s settlements newest first, each the object settlements/get serves', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: { id: string }) => item.id)).toEqual(newestFirst('marchAEur', 'marchAUsd', 'marchBEur', 'aprilAEur', 'aprilBGbp'));
    expect(res.body.pagination).toEqual({ page_size: 20, next_page_token: '' });
    for (const item of res.body.items) {
      const one = await platform.call('/v2/settlements/get', { id: item.id });
      const withoutLinks = (body: { files: Array<Record<string, unknown>> }) => ({
        ...body,
        files: body.files.map(({ download_url, ...file }) => ({ ...file, linked: download_url !== undefined })),
      });
      expect(withoutLinks(item)).toEqual(withoutLinks(one.body));
    }
    const processing = res.body.items.find((item: { id: string }) => item.id === ids.marchBEur);
    expect(processing).toMatchObject({ amount: -1_200, settlement_date: '2026-03-12', period_from: '2026-03-11', period_to: '2026-03-11' });
    expect(processing.files).toEqual([
      { type: 'SETTLEMENT', status: 'PROCESSING' },
      { type: 'FINANCIAL_ENTRIES', status: 'PROCESSING' },
    ]);
  });

  it('serves download_url for SUCCEEDED files: it downloads, is valid 15 minutes as settlements/get’s, and then expires', async () => {
    const res = await list({ filters: { currency: { operator: 'EQ', value: 'USD' } } });
    const [item] = res.body.items;
    expect(item.files).toEqual([
      { type: 'SETTLEMENT', status: 'SUCCEEDED', download_url: expect.stringContaining(`/files/stored/settlements/${ids.marchAUsd}/settlement.csv?`) },
      { type: 'FINANCIAL_ENTRIES', status: 'SUCCEEDED', download_url: expect.stringContaining(`/files/stored/settlements/${ids.marchAUsd}/financial-entries.csv?`) },
    ]);
    const url = new URL(item.files[0].download_url);
    const now = Math.floor(Date.now() / 1000);
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(now + 14 * 60);
    expect(Number(url.searchParams.get('expires'))).toBeLessThanOrEqual(now + 15 * 60);
    const downloaded = await fetch(url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-disposition')).toBe(`attachment; filename="${ids.marchAUsd}-settlement.csv"`);
    expect(await downloaded.text()).toBe(`record_type,settlement_id\r\nSETTLEMENT,${ids.marchAUsd}\r\n`);

    // The same link handed out 16 minutes ago has expired.
    const key = settlementFileKey(ids.marchAUsd!, 'SETTLEMENT');
    const stale = storedFileUrl(key, settlementFileDownloadName(ids.marchAUsd!, 'SETTLEMENT'), new Date(Date.now() - 16 * 60_000), 15 * 60)!;
    const expired = await fetch(stale);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { context: unknown }).context).toEqual({ expired_at: expect.any(String) });
  });

  it('settlement_date RANGE: from and to inclusive, either alone', async () => {
    expect(await idsOf({ settlement_date: { operator: 'RANGE', value: { from: '2026-03-11', to: '2026-03-12' } } })).toEqual(
      newestFirst('marchAEur', 'marchAUsd', 'marchBEur'),
    );
    expect(await idsOf({ settlement_date: { operator: 'RANGE', value: { from: '2026-03-12' } } })).toEqual(newestFirst('marchBEur', 'aprilAEur', 'aprilBGbp'));
    expect(await idsOf({ settlement_date: { operator: 'RANGE', value: { to: '2026-03-11' } } })).toEqual(newestFirst('marchAEur', 'marchAUsd'));
    expect(await idsOf({ settlement_date: { operator: 'RANGE', value: { from: '2026-04-02', to: '2026-04-02' } } })).toEqual(newestFirst('aprilBGbp'));
  });

  it('legal_entity_id and currency: EQ, NEQ, IN (array or comma-separated), combined with AND', async () => {
    expect(await idsOf({ legal_entity_id: { operator: 'EQ', value: leB } })).toEqual(newestFirst('marchBEur', 'aprilBGbp'));
    expect(await idsOf({ legal_entity_id: { operator: 'NEQ', value: leB } })).toEqual(newestFirst('marchAEur', 'marchAUsd', 'aprilAEur'));
    expect(await idsOf({ legal_entity_id: { operator: 'IN', value: `${leA}, ${leB}` } })).toHaveLength(5);
    expect(await idsOf({ currency: { operator: 'IN', value: ['GBP', 'USD'] } })).toEqual(newestFirst('marchAUsd', 'aprilBGbp'));
    expect(await idsOf({ currency: { operator: 'NEQ', value: 'EUR' } })).toEqual(newestFirst('marchAUsd', 'aprilBGbp'));
    expect(
      await idsOf({
        legal_entity_id: { operator: 'EQ', value: leA },
        currency: { operator: 'EQ', value: 'EUR' },
        settlement_date: { operator: 'RANGE', value: { from: '2026-04-01' } },
      }),
    ).toEqual([ids.aprilAEur]);
  });

  it('pages with next_page_token, bound to its filters', async () => {
    const filters = { currency: { operator: 'IN', value: 'EUR,USD,GBP' } };
    const all = newestFirst('marchAEur', 'marchAUsd', 'marchBEur', 'aprilAEur', 'aprilBGbp');
    const first = await list({ filters, pagination: { page_size: 2 } });
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual(all.slice(0, 2));
    expect(first.body.pagination).toEqual({ page_size: 2, next_page_token: expect.stringMatching(/.+/) });
    const second = await list({ filters, pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual(all.slice(2, 4));
    const third = await list({ filters, pagination: { page_size: 2, next_page_token: second.body.pagination.next_page_token } });
    expect(third.body.items.map((i: { id: string }) => i.id)).toEqual(all.slice(4));
    expect(third.body.pagination).toEqual({ page_size: 2, next_page_token: '' });

    const otherFilters = await list({ filters: { currency: { operator: 'EQ', value: 'EUR' } }, pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect({ status: otherFilters.status, fields: Object.keys(otherFilters.body.context.constraints) }).toEqual({ status: 400, fields: ['pagination.next_page_token'] });
  });

  it.each([
    ['an unknown currency in IN', { currency: { operator: 'IN', value: 'EUR,XXX' } }, 'filters.currency.value[1]', undefined],
    ['an operator the field does not allow', { settlement_date: { operator: 'EQ', value: '2026-03-11' } }, 'filters.settlement_date.operator', 'ENUM'],
    ['an empty settlement_date range', { settlement_date: { operator: 'RANGE', value: {} } }, 'filters.settlement_date.value', 'REQUIRED'],
    ['a range that ends before it starts', { settlement_date: { operator: 'RANGE', value: { from: '2026-03-12', to: '2026-03-11' } } }, 'filters.settlement_date.value.to', 'RANGE'],
    ['a date-time instead of a date', { settlement_date: { operator: 'RANGE', value: { from: '2026-03-11T00:00:00Z' } } }, 'filters.settlement_date.value.from', undefined],
    ['an id of another kind', { legal_entity_id: { operator: 'EQ', value: 'chn_123' } }, 'filters.legal_entity_id.value', undefined],
    ['an unknown filter', { provider: { operator: 'EQ', value: 'sandbox-alpha' } }, 'filters.provider', 'UNKNOWN_FIELD'],
  ])('400 VALIDATION with context for %s', async (_, filters, field, type) => {
    const res = await list({ filters });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION' });
    expect(Object.keys(res.body.context.constraints)).toContain(field);
    if (type) expect(res.body.context.constraints[field].type).toBe(type);
  });

  it('400 for a page_size over 100', async () => {
    const res = await list({ pagination: { page_size: 101 } });
    expect({ status: res.status, fields: Object.keys(res.body.context.constraints) }).toEqual({ status: 400, fields: ['pagination.page_size'] });
  });
});

describe('settlements/list access', () => {
  it('requires an account-level key: a channel-bound one gets 403', async () => {
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'bound', channelIds: [platform.channelIds[0]] });
    const res = await list({}, bound.secret);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED' });
  });

  it('requires the settlements:list permission: settlements:get alone is not enough', async () => {
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'get only', permissions: ['settlements:get'] });
    const res = await list({}, key.secret);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED' });
    const listing = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'list only', permissions: ['settlements:list'] });
    expect((await list({}, listing.secret)).status).toBe(200);
  });

  it('401 without a key', async () => {
    const res = await platform.call('/v2/settlements/list', {}, { secret: null });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('shows only the account’s own settlements', async () => {
    const other = await createAccount(platform.db, 'Other');
    const otherEntity = await createLegalEntity(platform.db, { accountId: other.id, name: 'Other BV', country: 'NLD' });
    await settlement('other', { accountId: other.id, legalEntityId: otherEntity.id, currency: 'EUR', day: '2026-03-11', amount: 1, stored: false });
    const key = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    expect(await list({}, key.secret).then((res) => res.body.items.map((i: { id: string }) => i.id))).toEqual([ids.other]);
    expect(await idsOf(undefined)).not.toContain(ids.other);
  });
});
