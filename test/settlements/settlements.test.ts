import { WorkflowFailedError } from '@temporalio/client';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createLegalEntity } from '../../scripts/operator/legal-entities';
import { usePlatform } from '../support/platform';
import { AT_ALPHA, AT_BETA, bookedPayment, download, moneyFlows, settle, type Paid } from './fixtures';

const platform = usePlatform();
let flows: ReturnType<typeof moneyFlows>;

/** The day under test, the days around it, and what happened on them. */
const DAY = '2026-03-10';
const NEXT_DAY = '2026-03-11';
const PREVIOUS_DAY = '2026-03-09';

let leA: string;
let leB: string;
const paid: Record<string, Paid> = {};
let refundIds: Record<string, string> = {};

beforeAll(async () => {
  flows = moneyFlows(platform);
  const [channelA, channelB, channelC] = platform.channelIds;
  leA = await flows.legalEntity(channelA, 'Acme GmbH', 'DEU');
  leB = await flows.legalEntity(channelB, 'Acme SAS', 'FRA');
  // channelC has no legal entity, and the account has two: its payments go unsettled.

  paid.a1 = await flows.paidInvoice(channelA, 'EUR', 10_000, AT_ALPHA);
  paid.a2 = await flows.paidInvoice(channelA, 'EUR', 2_500, AT_ALPHA);
  paid.a3 = await flows.paidInvoice(channelA, 'EUR', 7_000, AT_BETA);
  paid.a4 = await flows.paidInvoice(channelA, 'USD', 4_999, AT_ALPHA);
  paid.b1 = await flows.paidInvoice(channelB, 'EUR', 20_000, AT_ALPHA);
  paid.c1 = await flows.paidInvoice(channelC, 'EUR', 3_000, AT_ALPHA);
  paid.late = await flows.paidInvoice(channelA, 'EUR', 1_234, AT_ALPHA);
  paid.early = await flows.paidInvoice(channelA, 'EUR', 5_000, AT_BETA);
  refundIds = {
    a1: await flows.refund(paid.a1.invoiceId, 1_000),
    a3: await flows.refund(paid.a3.invoiceId, 7_000),
    early: await flows.refund(paid.early.invoiceId, 500),
  };

  // Both ends of the day: midnight belongs to the day it starts.
  await flows.bookAt(`${DAY}T00:00:00.000Z`, { charges: [paid.a1.chargeId] });
  await flows.bookAt(`${DAY}T09:30:00.000Z`, { charges: [paid.a3.chargeId, paid.a4.chargeId, paid.b1.chargeId, paid.c1.chargeId] });
  await flows.bookAt(`${DAY}T12:00:00.000Z`, { refunds: [refundIds.a1!, refundIds.a3!, refundIds.early!] });
  await flows.bookAt(`${DAY}T23:59:59.999Z`, { charges: [paid.a2.chargeId] });
  await flows.bookAt(`${NEXT_DAY}T00:00:00.000Z`, { charges: [paid.late.chargeId] });
  await flows.bookAt(`${PREVIOUS_DAY}T23:59:59.999Z`, { charges: [paid.early.chargeId] });
});

function rootCauseOf(error: unknown): unknown {
  let cause = error;
  while (cause instanceof Error && cause.cause) cause = cause.cause;
  return cause;
}

const get = (id: string, secret?: string) => platform.call('/v2/settlements/get', { id }, secret ? { secret } : {});

/** The day's settlement rows, their bigint amounts as numbers (exact at these sizes). */
async function settlementsOf(day: string) {
  const rows = await platform.db.settlement.findMany({
    where: { periodFrom: new Date(`${day}T00:00:00.000Z`) },
    include: { files: true },
    orderBy: [{ provider: 'asc' }, { legalEntityId: 'asc' }, { currency: 'asc' }],
  });
  return rows.map((row) => ({
    ...row,
    amount: Number(row.amount),
    grossAmount: Number(row.grossAmount),
    refundedAmount: Number(row.refundedAmount),
    feeAmount: Number(row.feeAmount),
  }));
}

/** What the sandbox books say for these charges and refunds: charged − refunded − fees. */
async function netInBooks(chargeIds: string[], refundIds: string[]): Promise<number> {
  const charges = await platform.db.sandboxProviderCharge.findMany({ where: { id: { in: chargeIds } } });
  const refunds = await platform.db.sandboxProviderRefund.findMany({ where: { id: { in: refundIds } } });
  expect(charges).toHaveLength(chargeIds.length);
  expect(refunds).toHaveLength(refundIds.length);
  return charges.reduce((sum, c) => sum + c.amount - c.fee, 0) - refunds.reduce((sum, r) => sum + r.amount, 0);
}

describe('settling a day', () => {
  it('settles each provider, legal entity and currency to the minor unit of the sandbox books', async () => {
    // The fees the sandbox took (docs/sandbox.md): alpha 2.9 % + 30, beta 2.5 % + 25, half up.
    const fees = Object.fromEntries(
      await Promise.all(
        Object.entries(paid).map(async ([name, p]) => [name, (await platform.db.sandboxProviderCharge.findUniqueOrThrow({ where: { id: p.chargeId } })).fee]),
      ),
    );
    expect(fees).toEqual({ a1: 320, a2: 103, a3: 200, a4: 175, b1: 610, c1: 117, late: 66, early: 150 });
    expect([paid.a1, paid.a2, paid.a4, paid.b1, paid.c1].map((p) => p.provider)).toEqual(Array(5).fill('sandbox-alpha'));
    expect([paid.a3, paid.early].map((p) => p.provider)).toEqual(['sandbox-beta', 'sandbox-beta']);

    const result = await settle(platform, DAY);
    expect(result).toEqual({ day: DAY, settlements: 4, filesSucceeded: 8, filesFailed: 0, unassignedLines: 1 });

    const rows = await settlementsOf(DAY);
    const summary = rows.map((row) => ({
      provider: row.provider,
      legalEntityId: row.legalEntityId,
      currency: row.currency,
      gross: row.grossAmount,
      refunded: row.refundedAmount,
      fees: row.feeAmount,
      amount: row.amount,
    }));
    const expected = [
      { provider: 'sandbox-alpha', legalEntityId: leA, currency: 'EUR', gross: 12_500, refunded: 1_000, fees: 423, amount: 11_077 },
      { provider: 'sandbox-alpha', legalEntityId: leA, currency: 'USD', gross: 4_999, refunded: 0, fees: 175, amount: 4_824 },
      { provider: 'sandbox-alpha', legalEntityId: leB, currency: 'EUR', gross: 20_000, refunded: 0, fees: 610, amount: 19_390 },
      // A refund settles on its own day, whatever day its charge was: here more goes out than comes in.
      { provider: 'sandbox-beta', legalEntityId: leA, currency: 'EUR', gross: 7_000, refunded: 7_500, fees: 200, amount: -700 },
    ].sort((x, y) => `${x.provider}${x.legalEntityId}${x.currency}`.localeCompare(`${y.provider}${y.legalEntityId}${y.currency}`));
    expect(summary).toEqual(expected);

    const byKey = (provider: string, le: string, currency: string) => rows.find((r) => r.provider === provider && r.legalEntityId === le && r.currency === currency)!;
    expect(byKey('sandbox-alpha', leA, 'EUR').amount).toBe(await netInBooks([paid.a1.chargeId, paid.a2.chargeId], [refundIds.a1!]));
    expect(byKey('sandbox-beta', leA, 'EUR').amount).toBe(
      (await netInBooks([paid.a3.chargeId], [refundIds.a3!, refundIds.early!])),
    );
    expect(byKey('sandbox-alpha', leB, 'EUR').amount).toBe(await netInBooks([paid.b1.chargeId], []));
    for (const row of rows) {
      expect(row.files.map((f) => [f.type, f.status]).sort()).toEqual([
        ['FINANCIAL_ENTRIES', 'SUCCEEDED'],
        ['SETTLEMENT', 'SUCCEEDED'],
      ]);
    }
  });

  it('serves the section 2.7 object with both files downloadable at short-lived links', async () => {
    const row = (await settlementsOf(DAY)).find((r) => r.provider === 'sandbox-alpha' && r.legalEntityId === leA && r.currency === 'EUR')!;
    const res = await get(row.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: row.id,
      provider_settlement_id: expect.stringMatching(/^sandbox-alpha_stl_20260310_[0-9a-f]{12}$/),
      provider: 'sandbox-alpha',
      legal_entity_id: leA,
      amount: 11_077,
      currency: 'EUR',
      settlement_date: NEXT_DAY,
      period_from: DAY,
      period_to: DAY,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      files: [
        { type: 'SETTLEMENT', status: 'SUCCEEDED', download_url: expect.stringContaining(`/files/stored/settlements/${row.id}/settlement.csv?`) },
        { type: 'FINANCIAL_ENTRIES', status: 'SUCCEEDED', download_url: expect.stringContaining(`/files/stored/settlements/${row.id}/financial-entries.csv?`) },
      ],
    });
    const [settlementFile, entriesFile] = res.body.files;
    const expires = Number(new URL(settlementFile.download_url).searchParams.get('expires'));
    const now = Math.floor(Date.now() / 1000);
    expect(expires).toBeGreaterThan(now + 10 * 60);
    expect(expires).toBeLessThanOrEqual(now + 15 * 60);

    const settlementCsv = await download(settlementFile.download_url);
    expect(settlementCsv.status).toBe(200);
    expect(settlementCsv.contentType).toMatch(/^text\/csv/);
    expect(
      settlementCsv.rows.map((r) => [r.record_type, r.provider_reference, r.payment_id, r.transacted_at, r.gross_amount, r.refunded_amount, r.fee_amount, r.net_amount, r.reconciliation]),
    ).toEqual([
      ['CHARGE', paid.a1!.chargeId, paid.a1!.paymentId, '2026-03-10T00:00:00.000000Z', '10000', '0', '320', '9680', 'MATCHED'],
      ['REFUND', refundIds.a1, paid.a1!.paymentId, '2026-03-10T12:00:00.000000Z', '0', '1000', '0', '-1000', 'MATCHED'],
      ['CHARGE', paid.a2!.chargeId, paid.a2!.paymentId, '2026-03-10T23:59:59.999000Z', '2500', '0', '103', '2397', 'MATCHED'],
      ['TOTAL', '', '', '', '12500', '1000', '423', '11077', ''],
    ]);
    expect(new Set(settlementCsv.rows.map((r) => `${r.settlement_id} ${r.legal_entity_id} ${r.currency} ${r.settlement_date}`))).toEqual(
      new Set([`${row.id} ${leA} EUR ${NEXT_DAY}`]),
    );

    const entries = await download(entriesFile.download_url);
    expect(entries.status).toBe(200);
    expect(entries.rows.map((r) => [r.entry_type, r.amount, r.provider_reference])).toEqual([
      ['CHARGE', '10000', paid.a1!.chargeId],
      ['FEE', '-320', paid.a1!.chargeId],
      ['REFUND', '-1000', refundIds.a1],
      ['CHARGE', '2500', paid.a2!.chargeId],
      ['FEE', '-103', paid.a2!.chargeId],
    ]);
    expect(entries.rows.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(res.body.amount);
  });

  it('financial entries of every settlement sum to its amount, negative ones included', async () => {
    for (const row of await settlementsOf(DAY)) {
      const { body } = await get(row.id);
      const entries = await download(body.files[1].download_url);
      expect(entries.rows.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(row.amount);
      expect(new Set(entries.rows.map((r) => r.currency))).toEqual(new Set([row.currency]));
    }
  });

  it('settles a day beyond 32-bit amounts to the minor unit: served, and in its files', async () => {
    const bigDay = '2026-04-15';
    for (const minute of ['00', '01', '02']) {
      await bookedPayment(platform.db, {
        accountId: platform.accountId,
        channelId: platform.channelIds[0]!,
        provider: 'sandbox-alpha',
        amount: 2_000_000_000,
        fee: 58_000_030,
        currency: 'JPY',
        at: `${bigDay}T10:${minute}:00.000Z`,
      });
    }
    expect(await settle(platform, bigDay)).toMatchObject({ settlements: 1, filesSucceeded: 2, filesFailed: 0 });

    const [row] = await settlementsOf(bigDay);
    expect(row).toMatchObject({ currency: 'JPY', grossAmount: 6_000_000_000, feeAmount: 174_000_090, refundedAmount: 0, amount: 5_825_999_910 });
    const { body } = await get(row!.id);
    expect(body.amount).toBe(5_825_999_910);
    const settlementFile = await download(body.files[0].download_url);
    const lines = settlementFile.rows.filter((r) => r.record_type !== 'TOTAL');
    expect(lines.reduce((sum, r) => sum + Number(r.gross_amount), 0)).toBe(6_000_000_000);
    expect(settlementFile.rows.find((r) => r.record_type === 'TOTAL')).toMatchObject({ gross_amount: '6000000000', net_amount: '5825999910' });
    const entries = await download(body.files[1].download_url);
    expect(entries.rows.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(5_825_999_910);
  });

  it('leaves out payments of a channel no legal entity receives', async () => {
    const settled = (await settlementsOf(DAY)).map((r) => r.legalEntityId);
    expect(settled).not.toContain(null);
    const lines = await platform.db.settlement.count({ where: { legalEntityId: { notIn: [leA, leB] } } });
    expect(lines).toBe(0);
    // Charge c1 is in the books of the day but in no settlement's file.
    for (const row of await settlementsOf(DAY)) {
      const rows = (await download((await get(row.id)).body.files[0].download_url)).rows;
      expect(rows.map((r) => r.provider_reference)).not.toContain(paid.c1!.chargeId);
    }
  });

  it('is idempotent: running the day again changes nothing and builds nothing', async () => {
    const before = await settlementsOf(DAY);
    const again = await settle(platform, DAY);
    expect(again).toEqual({ day: DAY, settlements: 0, filesSucceeded: 0, filesFailed: 0, unassignedLines: 1 });
    const after = await settlementsOf(DAY);
    expect(after).toEqual(before);
  });

  it('settles the neighbouring days apart, with lines our records disagree with flagged', async () => {
    // Our payment claims another fee than the provider took: the provider's books decide the amount.
    await platform.db.payment.update({ where: { id: paid.late!.paymentId }, data: { fee: 1 } });
    expect(await settle(platform, NEXT_DAY)).toMatchObject({ settlements: 1, filesSucceeded: 2, unassignedLines: 0 });
    const [late] = await settlementsOf(NEXT_DAY);
    expect(late).toMatchObject({ provider: 'sandbox-alpha', legalEntityId: leA, currency: 'EUR', amount: 1_234 - 66 });
    const rows = (await download((await get(late!.id)).body.files[0].download_url)).rows;
    expect(rows.map((r) => [r.record_type, r.reconciliation])).toEqual([
      ['CHARGE', 'PAYMENT_MISMATCH'],
      ['TOTAL', ''],
    ]);

    expect(await settle(platform, PREVIOUS_DAY)).toMatchObject({ settlements: 1, filesSucceeded: 2 });
    const [early] = await settlementsOf(PREVIOUS_DAY);
    expect(early).toMatchObject({ provider: 'sandbox-beta', legalEntityId: leA, amount: 5_000 - 150, refundedAmount: 0 });
    expect((await get(early!.id)).body).toMatchObject({ settlement_date: DAY, period_from: PREVIOUS_DAY, period_to: PREVIOUS_DAY });
  });

  it('a file whose books no longer add up FAILS without a link; a later run builds it', async () => {
    const [late] = await settlementsOf(NEXT_DAY);
    const updatedBefore: string = (await get(late!.id)).body.updated_at;
    // As if an earlier run had failed this file; meanwhile the provider's books of the day changed.
    await platform.db.settlementFile.update({ where: { settlementId_type: { settlementId: late!.id, type: 'FINANCIAL_ENTRIES' } }, data: { status: 'FAILED' } });
    const extra = await flows.paidInvoice(platform.channelIds[0], 'EUR', 999, AT_ALPHA);
    await flows.bookAt(`${NEXT_DAY}T08:00:00.000Z`, { charges: [extra.chargeId] });

    expect(await settle(platform, NEXT_DAY)).toMatchObject({ settlements: 1, filesSucceeded: 0, filesFailed: 1 });
    const failed = await platform.db.settlementFile.findUniqueOrThrow({ where: { settlementId_type: { settlementId: late!.id, type: 'FINANCIAL_ENTRIES' } } });
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/^BOOKS_CHANGED: /);
    const res = await get(late!.id);
    expect(res.body.amount).toBe(1_234 - 66);
    // The files are part of the settlement: their change is its update.
    expect(res.body.updated_at > updatedBefore).toBe(true);
    expect(res.body.files).toEqual([
      { type: 'SETTLEMENT', status: 'SUCCEEDED', download_url: expect.any(String) },
      { type: 'FINANCIAL_ENTRIES', status: 'FAILED' },
    ]);

    await flows.bookAt(`2026-03-15T08:00:00.000Z`, { charges: [extra.chargeId] });
    expect(await settle(platform, NEXT_DAY)).toMatchObject({ settlements: 1, filesSucceeded: 1, filesFailed: 0 });
    const rebuilt = await get(late!.id);
    expect(rebuilt.body.files[1]).toEqual({ type: 'FINANCIAL_ENTRIES', status: 'SUCCEEDED', download_url: expect.any(String) });
    const entries = await download(rebuilt.body.files[1].download_url);
    expect(entries.rows.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(1_234 - 66);
  });

  it('shows no download_url while a file is PROCESSING', async () => {
    const [early] = await settlementsOf(PREVIOUS_DAY);
    await platform.db.settlementFile.update({ where: { settlementId_type: { settlementId: early!.id, type: 'SETTLEMENT' } }, data: { status: 'PROCESSING' } });
    const res = await get(early!.id);
    expect(res.body.files).toEqual([
      { type: 'SETTLEMENT', status: 'PROCESSING' },
      { type: 'FINANCIAL_ENTRIES', status: 'SUCCEEDED', download_url: expect.any(String) },
    ]);
  });

  it('a channel without a legal entity falls back to its account’s only one', async () => {
    const solo = await createAccount(platform.db, 'Single company');
    const channel = await createChannel(platform.db, solo.id, 'Web');
    const entity = await createLegalEntity(platform.db, { accountId: solo.id, name: 'Solo BV', country: 'NLD' });
    await bookedPayment(platform.db, { accountId: solo.id, channelId: channel.id, provider: 'sandbox-alpha', amount: 4_200, fee: 152, currency: 'EUR', at: '2026-03-20T10:00:00.000Z' });
    expect(await settle(platform, '2026-03-20')).toMatchObject({ settlements: 1, unassignedLines: 0 });
    expect(await settlementsOf('2026-03-20')).toEqual([expect.objectContaining({ accountId: solo.id, legalEntityId: entity.id, amount: 4_200 - 152 })]);
  });

  it('refuses a day that is not one', async () => {
    const failure = await settle(platform, '2026-02-30').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(rootCauseOf(failure)).toMatchObject({ type: 'INVALID_DAY', message: 'Not a day (YYYY-MM-DD): 2026-02-30' });
  });
});

describe('settlements/get access', () => {
  it('requires an account-level key: a channel-bound one gets 403', async () => {
    const [row] = await settlementsOf(DAY);
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'bound', channelIds: [platform.channelIds[0]] });
    const res = await get(row!.id, bound.secret);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED' });
  });

  it('404 for an unknown settlement and for another account’s', async () => {
    const unknown = await get('sttl_01unknown');
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    const other = await createAccount(platform.db, 'Other account');
    const key = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    const [row] = await settlementsOf(DAY);
    expect((await get(row!.id, key.secret)).status).toBe(404);
  });

  it('400 for an id without the sttl_ prefix', async () => {
    const res = await get('msttm_123');
    expect({ status: res.status, code: res.body.code, field: Object.keys(res.body.context.constraints) }).toEqual({
      status: 400,
      code: 'VALIDATION',
      field: ['id'],
    });
  });
});
