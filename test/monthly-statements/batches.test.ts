import { text } from 'node:stream/consumers';
import Papa from 'papaparse';
import { createMonthlyStatementActivities } from '../../activities/monthly-statements';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import { createAccount, createChannel } from '../../scripts/operator/accounts';
import { createLegalEntity } from '../../scripts/operator/legal-entities';
import { bookedPayment, executeInRuns, storageFailing, withActivities } from '../settlements/fixtures';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let accountId: string;
let channelId: string;

const PROVIDERS = ['sandbox-alpha', 'sandbox-beta'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'PLN'];

beforeAll(async () => {
  // An account of its own with one legal entity: every channel falls back to it.
  const account = await createAccount(platform.db, 'Statement batches');
  accountId = account.id;
  channelId = (await createChannel(platform.db, account.id, 'Web')).id;
  await createLegalEntity(platform.db, { accountId, name: 'Batch GmbH', country: 'DEU' });
});

/** One statement per provider and currency of `currencies` in `month`: a charge on the 2nd and two on the 20th. */
async function bookMonth(month: string, currencies: string[]): Promise<number> {
  for (const provider of PROVIDERS) {
    for (const currency of currencies) {
      for (const at of ['02T08:00', '20T08:00', '20T16:00']) {
        await bookedPayment(platform.db, { accountId, channelId, provider, amount: 1_000, fee: 30, currency, at: `${month}-${at}:00.000Z` });
      }
    }
  }
  return PROVIDERS.length * currencies.length;
}

let runs = 0;
function issueInRuns(month: string, options: { batchSize: number; batchesPerRun: number }, taskQueue?: string) {
  runs += 1;
  return executeInRuns(platform, 'monthlyStatementWorkflow', `test/statement-batches/${month}/${runs}`, [{ month, ...options }], taskQueue);
}

/** Every statement of the month uploaded once, its file two days and a TOTAL of three charges. */
async function expectEveryStatementUploaded(month: string) {
  const statements = await platform.db.monthlyStatement.findMany({ where: { accountId, periodFrom: new Date(`${month}-01T00:00:00.000Z`) } });
  for (const statement of statements) {
    expect(statement.uploadedAt).not.toBeNull();
    const csv = await text((await fileStorageFromEnv().read(statement.storageKey!))!);
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    expect(rows.map((row) => [row.record_type, row.date, row.charges, row.gross_amount, row.net_amount])).toEqual([
      ['DAY', `${month}-02`, '1', '1000', '970'],
      ['DAY', `${month}-20`, '2', '2000', '1940'],
      ['TOTAL', '', '3', '3000', '2910'],
    ]);
  }
  return statements.length;
}

describe('issuing a month in batches', () => {
  it('uploads every statement of a month larger than a batch, each run’s history bounded whatever the month holds', async () => {
    const small = await bookMonth('2026-06', CURRENCIES.slice(0, 2));
    const large = await bookMonth('2026-07', CURRENCIES);
    const options = { batchSize: 2, batchesPerRun: 2 };

    const few = await issueInRuns('2026-06', options);
    const many = await issueInRuns('2026-07', options);

    expect(few.result).toEqual({ month: '2026-06', uploaded: small });
    expect(many.result).toEqual({ month: '2026-07', uploaded: large });
    expect(await expectEveryStatementUploaded('2026-06')).toBe(small);
    expect(await expectEveryStatementUploaded('2026-07')).toBe(large);
    // Three times the statements: more runs, none longer than those of the small month.
    expect(many.historyLengths.length).toBeGreaterThan(few.historyLengths.length);
    expect(Math.max(...many.historyLengths)).toBeLessThanOrEqual(Math.max(...few.historyLengths));
  });

  it('a batch retried after one upload failed uploads only that statement again and counts each once', async () => {
    const statements = await bookMonth('2026-08', CURRENCIES.slice(0, 3));
    // The third statement written fails once, as a storage outage would.
    const { storage, writes } = storageFailing((_key, writes) => writes.length === 3);
    const { result, historyLengths } = await withActivities(platform, createMonthlyStatementActivities({ db: platform.db, storage }), (taskQueue) =>
      issueInRuns('2026-08', { batchSize: 100, batchesPerRun: 50 }, taskQueue),
    );

    expect(result).toEqual({ month: '2026-08', uploaded: statements });
    expect(historyLengths).toHaveLength(1);
    expect(writes).toHaveLength(statements + 1);
    expect(writes.filter((key) => key === writes[2])).toHaveLength(2);
    expect(await expectEveryStatementUploaded('2026-08')).toBe(statements);
    expect(await issueInRuns('2026-08', { batchSize: 2, batchesPerRun: 2 })).toMatchObject({ result: { month: '2026-08', uploaded: 0 } });
  });
});
