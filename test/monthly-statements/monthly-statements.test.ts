import { text } from 'node:stream/consumers';
import Papa from 'papaparse';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import { storedFileUrl } from '../../api/files/stored-file-url';
import { newId } from '../../domain/ids';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { AT_ALPHA, AT_BETA, moneyFlows } from '../settlements/fixtures';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let flows: ReturnType<typeof moneyFlows>;
let leA: string;
let leB: string;
let leC: string;

beforeAll(async () => {
  flows = moneyFlows(platform);
  leA = await flows.legalEntity(platform.channelIds[0], 'Acme GmbH', 'DEU');
  leB = await flows.legalEntity(platform.channelIds[1], 'Acme SAS', 'FRA');
  leC = await flows.legalEntity(null, 'Acme Ltd', 'GBR');

  const [channelA, channelB] = platform.channelIds;
  const feb3 = await flows.paidInvoice(channelA, 'EUR', 10_000, AT_ALPHA);
  const feb17 = await flows.paidInvoice(channelA, 'EUR', 2_000, AT_ALPHA);
  const feb28 = await flows.paidInvoice(channelA, 'USD', 3_000, AT_ALPHA);
  const feb10 = await flows.paidInvoice(channelB, 'EUR', 6_000, AT_BETA);
  const march1 = await flows.paidInvoice(channelA, 'EUR', 4_000, AT_ALPHA);
  const jan31 = await flows.paidInvoice(channelA, 'EUR', 1_500, AT_ALPHA);
  const refund = await flows.refund(feb17.invoiceId, 500);
  await flows.bookAt('2026-02-03T10:00:00.000Z', { charges: [feb3.chargeId] });
  await flows.bookAt('2026-02-10T10:00:00.000Z', { charges: [feb10.chargeId] });
  await flows.bookAt('2026-02-17T10:00:00.000Z', { charges: [feb17.chargeId] });
  await flows.bookAt('2026-02-20T10:00:00.000Z', { refunds: [refund] });
  await flows.bookAt('2026-02-28T23:59:59.999Z', { charges: [feb28.chargeId] });
  await flows.bookAt('2026-03-01T00:00:00.000Z', { charges: [march1.chargeId] });
  await flows.bookAt('2026-01-31T23:59:59.999Z', { charges: [jan31.chargeId] });
});

let runs = 0;
function issue(month: string) {
  runs += 1;
  return platform.env.client.workflow.execute('monthlyStatementWorkflow', { taskQueue: TASK_QUEUE, workflowId: `test/statements/${month}/${runs}`, args: [{ month }] });
}

const list = (body: unknown, secret?: string) => platform.call('/v2/monthly-statements/list', body, secret ? { secret } : {});

async function statementCsv(storageKey: string) {
  const stream = await fileStorageFromEnv().read(storageKey);
  return Papa.parse<Record<string, string>>(await text(stream!), { header: true, skipEmptyLines: true }).data;
}

describe('issuing the statements of a month', () => {
  it('issues one statement per provider, legal entity and currency with activity in the month', async () => {
    expect(await issue('2026-02')).toEqual({ month: '2026-02', uploaded: 3 });
    const res = await list({});
    expect(res.status).toBe(200);
    const items = [...res.body.items].sort((a, b) => `${a.provider}${a.legal_entity_id}${a.currency}`.localeCompare(`${b.provider}${b.legal_entity_id}${b.currency}`));
    const stamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
    const statement = (provider: string, legalEntityId: string, currency: string) => ({
      id: expect.stringMatching(/^msttm_/),
      provider_statement_id: expect.stringMatching(new RegExp(`^${provider}_mst_202602_[0-9a-f]{12}$`)),
      provider,
      legal_entity_id: legalEntityId,
      currency,
      period_from: '2026-02-01',
      period_to: '2026-02-28',
      uploaded_at: expect.stringMatching(stamp),
      created_at: expect.stringMatching(stamp),
      updated_at: expect.stringMatching(stamp),
      files: [{ type: 'MONTHLY_STATEMENT', status: 'SUCCEEDED', download_url: expect.stringContaining('/files/stored/monthly-statements/') }],
    });
    const expected = [statement('sandbox-alpha', leA, 'EUR'), statement('sandbox-alpha', leA, 'USD'), statement('sandbox-beta', leB, 'EUR')];
    expect(items).toEqual(expected);
  });

  it('stores a CSV per statement: a row per day with activity and a TOTAL row', async () => {
    const row = await platform.db.monthlyStatement.findFirstOrThrow({ where: { provider: 'sandbox-alpha', legalEntityId: leA, currency: 'EUR' } });
    expect(row.storageKey).toBe(`monthly-statements/${row.id}/statement.csv`);
    const rows = await statementCsv(row.storageKey!);
    // alpha fees (docs/sandbox.md): 10,000 → 320, 2,000 → 88. The refund keeps no fee back.
    expect(rows.map((r) => [r.record_type, r.date, r.charges, r.refunds, r.gross_amount, r.refunded_amount, r.fee_amount, r.net_amount])).toEqual([
      ['DAY', '2026-02-03', '1', '0', '10000', '0', '320', '9680'],
      ['DAY', '2026-02-17', '1', '0', '2000', '0', '88', '1912'],
      ['DAY', '2026-02-20', '0', '1', '0', '500', '0', '-500'],
      ['TOTAL', '', '2', '1', '12000', '500', '408', '11092'],
    ]);
    expect(new Set(rows.map((r) => `${r.statement_id} ${r.provider_statement_id} ${r.legal_entity_id} ${r.currency}`))).toEqual(
      new Set([`${row.id} ${row.providerStatementId} ${leA} EUR`]),
    );
    const usd = await platform.db.monthlyStatement.findFirstOrThrow({ where: { legalEntityId: leA, currency: 'USD' } });
    expect((await statementCsv(usd.storageKey!)).map((r) => [r.record_type, r.date, r.net_amount])).toEqual([
      ['DAY', '2026-02-28', String(3_000 - 117)],
      ['TOTAL', '', String(3_000 - 117)],
    ]);
  });

  it('is idempotent: a rerun issues nothing new and keeps uploaded_at', async () => {
    const before = await platform.db.monthlyStatement.findMany({ orderBy: { id: 'asc' } });
    expect(await issue('2026-02')).toEqual({ month: '2026-02', uploaded: 0 });
    expect(await platform.db.monthlyStatement.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('a statement recorded but not uploaded yet is uploaded by the next run', async () => {
    expect(await issue('2026-01')).toEqual({ month: '2026-01', uploaded: 1 });
    const january = await platform.db.monthlyStatement.findFirstOrThrow({ where: { periodFrom: new Date('2026-01-01T00:00:00Z') } });
    expect(january).toMatchObject({ legalEntityId: leA, currency: 'EUR', periodTo: new Date('2026-01-31T00:00:00Z') });
    // As if the run had stopped between recording the statement and uploading its file.
    await platform.db.monthlyStatement.update({ where: { id: january.id }, data: { uploadedAt: null, storageKey: null } });
    expect(await issue('2026-01')).toEqual({ month: '2026-01', uploaded: 1 });
    const uploaded = await platform.db.monthlyStatement.findUniqueOrThrow({ where: { id: january.id } });
    expect(uploaded.uploadedAt).not.toBeNull();
    expect((await statementCsv(uploaded.storageKey!)).map((r) => [r.record_type, r.net_amount])).toEqual([
      ['DAY', String(1_500 - 74)],
      ['TOTAL', String(1_500 - 74)],
    ]);
  });
});

describe('the statement file in `files` (an extension, docs/monthly-statements.md)', () => {
  it('links an uploaded statement’s CSV for 15 minutes, as settlement files are linked', async () => {
    const row = await platform.db.monthlyStatement.findFirstOrThrow({ where: { provider: 'sandbox-alpha', legalEntityId: leA, currency: 'EUR', periodFrom: new Date('2026-02-01T00:00:00Z') } });
    const item = (await list({})).body.items.find((i: { id: string }) => i.id === row.id);
    expect(item.files).toEqual([
      { type: 'MONTHLY_STATEMENT', status: 'SUCCEEDED', download_url: expect.stringContaining(`/files/stored/monthly-statements/${row.id}/statement.csv?filename=${row.id}-statement.csv&`) },
    ]);
    const url = new URL(item.files[0].download_url);
    const now = Math.floor(Date.now() / 1000);
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(now + 14 * 60);
    expect(Number(url.searchParams.get('expires'))).toBeLessThanOrEqual(now + 15 * 60);

    const downloaded = await fetch(url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(downloaded.headers.get('content-disposition')).toBe(`attachment; filename="${row.id}-statement.csv"`);
    const rows = Papa.parse<Record<string, string>>(await downloaded.text(), { header: true, skipEmptyLines: true }).data;
    expect(rows).toEqual(await statementCsv(row.storageKey!));
    expect(rows.at(-1)).toMatchObject({ record_type: 'TOTAL', statement_id: row.id, net_amount: '11092' });

    // The same link handed out 16 minutes ago has expired.
    const stale = storedFileUrl(row.storageKey!, `${row.id}-statement.csv`, new Date(Date.now() - 16 * 60_000), 15 * 60)!;
    const expired = await fetch(stale);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { context: unknown }).context).toEqual({ expired_at: expect.any(String) });
  });

  it('is PROCESSING without a link until the statement is uploaded', async () => {
    const row = await platform.db.monthlyStatement.findFirstOrThrow({ where: { legalEntityId: leA, currency: 'USD' } });
    await platform.db.monthlyStatement.update({ where: { id: row.id }, data: { uploadedAt: null, storageKey: null } });
    const pending = (await list({ filters: { currency: { operator: 'EQ', value: 'USD' } } })).body.items;
    expect(pending.map((i: { id: string; files: unknown }) => [i.id, i.files])).toEqual([[row.id, [{ type: 'MONTHLY_STATEMENT', status: 'PROCESSING' }]]]);
    expect(await issue('2026-02')).toEqual({ month: '2026-02', uploaded: 1 });
    const uploaded = (await list({ filters: { currency: { operator: 'EQ', value: 'USD' } } })).body.items;
    expect(uploaded[0].files).toEqual([{ type: 'MONTHLY_STATEMENT', status: 'SUCCEEDED', download_url: expect.stringContaining(`/${row.id}/statement.csv?`) }]);
    expect((await fetch(uploaded[0].files[0].download_url)).status).toBe(200);
  });
});

describe('monthly-statements/list filters (section 4.7)', () => {
  /** Statement ids by name, for readable expectations. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const byKey = async (name: string, where: { legalEntityId: string; currency: string; periodFrom: Date }, uploadedAt: string) => {
      const row = await platform.db.monthlyStatement.findFirstOrThrow({ where });
      await platform.db.monthlyStatement.update({ where: { id: row.id }, data: { uploadedAt: new Date(uploadedAt) } });
      ids[name] = row.id;
    };
    const feb = new Date('2026-02-01T00:00:00Z');
    // Uploaded as the Schedule would have: on the 1st after the month.
    await byKey('febAEur', { legalEntityId: leA, currency: 'EUR', periodFrom: feb }, '2026-03-01T04:00:00.000Z');
    await byKey('febAUsd', { legalEntityId: leA, currency: 'USD', periodFrom: feb }, '2026-03-01T04:00:00.000Z');
    await byKey('febBEur', { legalEntityId: leB, currency: 'EUR', periodFrom: feb }, '2026-03-01T04:00:01.000Z');
    await byKey('janAEur', { legalEntityId: leA, currency: 'EUR', periodFrom: new Date('2026-01-01T00:00:00Z') }, '2026-02-01T04:00:00.000Z');
    // What other providers may report: a statement of another entity and currency, and one with no period, not uploaded.
    const now = new Date();
    ids.marCGbp = newId('monthlyStatement');
    ids.noPeriod = newId('monthlyStatement');
    await platform.db.monthlyStatement.createMany({
      data: [
        {
          id: ids.marCGbp,
          accountId: platform.accountId,
          legalEntityId: leC,
          provider: 'sandbox-beta',
          currency: 'GBP',
          periodFrom: new Date('2026-03-01T00:00:00Z'),
          periodTo: new Date('2026-03-31T00:00:00Z'),
          uploadedAt: new Date('2026-04-01T05:00:00.000Z'),
          createdAt: now,
          updatedAt: now,
        },
        { id: ids.noPeriod, accountId: platform.accountId, legalEntityId: leB, provider: 'sandbox-beta', currency: 'EUR', createdAt: now, updatedAt: now },
      ],
    });
  });

  const idsOf = async (filters: unknown, pagination?: unknown) => {
    const res = await list({ filters, ...(pagination ? { pagination } : {}) });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.items.map((item: { id: string }) => item.id);
  };
  /** Newest first, as every list. */
  const newestFirst = (...names: string[]) => names.map((name) => ids[name]!).sort().reverse();

  it('lists every statement of the account, newest first, with absent fields left out', async () => {
    expect(await idsOf(undefined)).toEqual(newestFirst('febAEur', 'febAUsd', 'febBEur', 'janAEur', 'marCGbp', 'noPeriod'));
    const res = await list({ filters: { legal_entity_id: { operator: 'EQ', value: leB }, currency: { operator: 'EQ', value: 'EUR' } } });
    const bare = res.body.items.find((item: { id: string }) => item.id === ids.noPeriod);
    expect(Object.keys(bare).sort()).toEqual(['created_at', 'currency', 'files', 'id', 'legal_entity_id', 'provider', 'updated_at']);
    expect(bare.files).toEqual([{ type: 'MONTHLY_STATEMENT', status: 'PROCESSING' }]);
  });

  it('legal_entity_id: EQ, NEQ, IN as a comma-separated string or an array', async () => {
    expect(await idsOf({ legal_entity_id: { operator: 'EQ', value: leA } })).toEqual(newestFirst('febAEur', 'febAUsd', 'janAEur'));
    expect(await idsOf({ legal_entity_id: { operator: 'NEQ', value: leA } })).toEqual(newestFirst('febBEur', 'marCGbp', 'noPeriod'));
    expect(await idsOf({ legal_entity_id: { operator: 'IN', value: `${leB}, ${leC}` } })).toEqual(newestFirst('febBEur', 'marCGbp', 'noPeriod'));
    expect(await idsOf({ legal_entity_id: { operator: 'IN', value: [leC] } })).toEqual(newestFirst('marCGbp'));
  });

  it('currency: EQ, NEQ, IN', async () => {
    expect(await idsOf({ currency: { operator: 'EQ', value: 'USD' } })).toEqual(newestFirst('febAUsd'));
    expect(await idsOf({ currency: { operator: 'NEQ', value: 'EUR' } })).toEqual(newestFirst('febAUsd', 'marCGbp'));
    expect(await idsOf({ currency: { operator: 'IN', value: 'GBP,USD' } })).toEqual(newestFirst('febAUsd', 'marCGbp'));
  });

  it('period RANGE: statements whose whole period lies within [from, to]', async () => {
    expect(await idsOf({ period: { operator: 'RANGE', value: { from: '2026-02-01', to: '2026-02-28' } } })).toEqual(newestFirst('febAEur', 'febAUsd', 'febBEur'));
    // February ends after the 27th: only January lies within.
    expect(await idsOf({ period: { operator: 'RANGE', value: { from: '2026-01-01', to: '2026-02-27' } } })).toEqual(newestFirst('janAEur'));
    // January starts before the 15th.
    expect(await idsOf({ period: { operator: 'RANGE', value: { from: '2026-01-15', to: '2026-03-31' } } })).toEqual(
      newestFirst('febAEur', 'febAUsd', 'febBEur', 'marCGbp'),
    );
    expect(await idsOf({ period: { operator: 'RANGE', value: { from: '2026-02-02', to: '2026-02-28' } } })).toEqual([]);
  });

  it('uploaded_at RANGE: {from, to} (from inclusive, to exclusive), either end alone, or one date-time meaning from', async () => {
    expect(await idsOf({ uploaded_at: { operator: 'RANGE', value: { from: '2026-03-01T04:00:00.000000Z', to: '2026-03-01T04:00:01.000000Z' } } })).toEqual(
      newestFirst('febAEur', 'febAUsd'),
    );
    expect(await idsOf({ uploaded_at: { operator: 'RANGE', value: { to: '2026-03-01T00:00:00.000000Z' } } })).toEqual(newestFirst('janAEur'));
    expect(await idsOf({ uploaded_at: { operator: 'RANGE', value: '2026-03-01T04:00:01.000000Z' } })).toEqual(newestFirst('febBEur', 'marCGbp'));
  });

  it('filters combine, and pages keep them', async () => {
    expect(
      await idsOf({
        legal_entity_id: { operator: 'EQ', value: leA },
        currency: { operator: 'EQ', value: 'EUR' },
        period: { operator: 'RANGE', value: { from: '2026-02-01', to: '2026-12-31' } },
      }),
    ).toEqual([ids.febAEur]);

    const filters = { legal_entity_id: { operator: 'NEQ', value: leC } };
    const first = await list({ filters, pagination: { page_size: 3 } });
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual(newestFirst('febAEur', 'febAUsd', 'febBEur', 'janAEur', 'noPeriod').slice(0, 3));
    const second = await list({ filters, pagination: { page_size: 3, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual(newestFirst('febAEur', 'febAUsd', 'febBEur', 'janAEur', 'noPeriod').slice(3));
    expect(second.body.pagination).toEqual({ page_size: 3, next_page_token: '' });
    const otherFilters = await list({ filters: { currency: { operator: 'EQ', value: 'EUR' } }, pagination: { page_size: 3, next_page_token: first.body.pagination.next_page_token } });
    expect(otherFilters.status).toBe(400);
  });

  it.each([
    ['an unknown currency in IN', { currency: { operator: 'IN', value: 'EUR,XXX' } }, 'filters.currency.value[1]'],
    ['an operator the field does not allow', { period: { operator: 'EQ', value: '2026-02-01' } }, 'filters.period.operator'],
    ['a period without `to`', { period: { operator: 'RANGE', value: { from: '2026-02-01' } } }, 'filters.period.value.to'],
    ['a period that ends before it starts', { period: { operator: 'RANGE', value: { from: '2026-03-01', to: '2026-02-01' } } }, 'filters.period.value.to'],
    ['a period given as date-times', { period: { operator: 'RANGE', value: { from: '2026-02-01T00:00:00Z', to: '2026-02-28' } } }, 'filters.period.value.from'],
    ['an id of another kind', { legal_entity_id: { operator: 'EQ', value: 'chn_123' } }, 'filters.legal_entity_id.value'],
    ['an empty uploaded_at range', { uploaded_at: { operator: 'RANGE', value: {} } }, 'filters.uploaded_at.value'],
    ['an unknown filter', { provider: { operator: 'EQ', value: 'sandbox-alpha' } }, 'filters.provider'],
  ])('400 VALIDATION for %s', async (_, filters, field) => {
    const res = await list({ filters });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(Object.keys(res.body.context.constraints)).toContain(field);
  });
});

describe('monthly-statements/list access', () => {
  it('requires an account-level key: a channel-bound one gets 403', async () => {
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'bound', channelIds: [platform.channelIds[0]] });
    const res = await list({}, bound.secret);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED' });
  });

  it('requires the monthly-statements:list permission', async () => {
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'no list', permissions: ['settlements:get'] });
    expect((await list({}, key.secret)).status).toBe(403);
  });

  it('shows only the account’s own statements', async () => {
    const other = await createAccount(platform.db, 'Other');
    const key = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    const res = await list({}, key.secret);
    expect(res.body).toEqual({ items: [], pagination: { page_size: 20, next_page_token: '' } });
  });
});
