import { text } from 'node:stream/consumers';
import { createSettlementActivities } from '../../activities/settlements';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import type { FileStorage } from '../../services/files/storage';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import { createAccount, createChannel } from '../../scripts/operator/accounts';
import { createLegalEntity } from '../../scripts/operator/legal-entities';
import { usePlatform } from '../support/platform';
import { bookedPayment, executeInRuns, storageFailing, withActivities } from './fixtures';

const platform = usePlatform();
let channelId: string;

const PROVIDERS = ['sandbox-alpha', 'sandbox-beta'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'PLN'];

/** One settlement per provider and currency of `currencies` on `day`, two charges each. */
async function bookDay(day: string, currencies: string[]): Promise<number> {
  for (const provider of PROVIDERS) {
    for (const [index, currency] of currencies.entries()) {
      for (const hour of ['08', '16']) {
        await bookedPayment(platform.db, { accountId: accountId!, channelId, provider, amount: 1_000 + index, fee: 30, currency, at: `${day}T${hour}:00:00.000Z` });
      }
    }
  }
  return PROVIDERS.length * currencies.length;
}

let accountId: string | undefined;

beforeAll(async () => {
  // An account of its own with one legal entity: every channel falls back to it.
  const account = await createAccount(platform.db, 'Batches');
  accountId = account.id;
  channelId = (await createChannel(platform.db, account.id, 'Web')).id;
  await createLegalEntity(platform.db, { accountId: account.id, name: 'Batch GmbH', country: 'DEU' });
});

let runs = 0;

function settleInRuns(day: string, options: { batchSize: number; batchesPerRun: number }, taskQueue = TASK_QUEUE) {
  runs += 1;
  return executeInRuns(platform, 'settlementWorkflow', `test/settlement-batches/${day}/${runs}`, [{ day, ...options }], taskQueue);
}

async function settlementsOf(day: string) {
  return platform.db.settlement.findMany({ where: { accountId, periodFrom: new Date(`${day}T00:00:00.000Z`) }, include: { files: true }, orderBy: { id: 'asc' } });
}

/** Every file of the day SUCCEEDED, and its FINANCIAL_ENTRIES sum to the settlement's amount. */
async function expectEveryFileBuilt(day: string, storage: FileStorage = fileStorageFromEnv()) {
  for (const settlement of await settlementsOf(day)) {
    expect(settlement.files.map((file) => [file.type, file.status]).sort()).toEqual([
      ['FINANCIAL_ENTRIES', 'SUCCEEDED'],
      ['SETTLEMENT', 'SUCCEEDED'],
    ]);
    const entries = settlement.files.find((file) => file.type === 'FINANCIAL_ENTRIES')!;
    const csv = await text((await storage.read(entries.storageKey!))!);
    const amounts = csv.split('\r\n').slice(1).filter((line) => line !== '').map((line) => Number(line.split(',')[2]));
    expect(amounts).toHaveLength(4);
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(Number(settlement.amount));
  }
}

describe('settling a day in batches', () => {
  it('builds every file of a day larger than a batch, each run’s history bounded whatever the day holds', async () => {
    const small = await bookDay('2026-05-01', CURRENCIES.slice(0, 2));
    const large = await bookDay('2026-05-02', CURRENCIES);
    const options = { batchSize: 2, batchesPerRun: 2 };

    const few = await settleInRuns('2026-05-01', options);
    const many = await settleInRuns('2026-05-02', options);

    expect(few.result).toEqual({ day: '2026-05-01', settlements: small, filesSucceeded: 2 * small, filesFailed: 0, unassignedLines: 0 });
    expect(many.result).toEqual({ day: '2026-05-02', settlements: large, filesSucceeded: 2 * large, filesFailed: 0, unassignedLines: 0 });
    await expectEveryFileBuilt('2026-05-01');
    await expectEveryFileBuilt('2026-05-02');
    // Three times the settlements: more runs, none longer than those of the small day.
    expect(many.historyLengths.length).toBeGreaterThan(few.historyLengths.length);
    expect(Math.max(...many.historyLengths)).toBeLessThanOrEqual(Math.max(...few.historyLengths));
  });

  it('a batch retried after one file failed builds only that file again and counts each file once', async () => {
    const settlements = await bookDay('2026-05-03', CURRENCIES.slice(0, 3));
    // The third file written fails once, as a storage outage would.
    const { storage: flaky, writes } = storageFailing((_key, writes) => writes.length === 3);
    const { result, historyLengths } = await withActivities(platform, createSettlementActivities({ db: platform.db, storage: flaky }), (taskQueue) =>
      settleInRuns('2026-05-03', { batchSize: 100, batchesPerRun: 50 }, taskQueue),
    );

    expect(result).toEqual({ day: '2026-05-03', settlements, filesSucceeded: 2 * settlements, filesFailed: 0, unassignedLines: 0 });
    expect(historyLengths).toHaveLength(1);
    expect(writes).toHaveLength(2 * settlements + 1);
    expect(writes.filter((key) => key === writes[2])).toHaveLength(2);
    expect(new Set(writes).size).toBe(2 * settlements);
    await expectEveryFileBuilt('2026-05-03');
  });

  it('a batch failing every attempt marks only its unbuilt files FAILED; the next run of the day builds them', async () => {
    const settlements = await bookDay('2026-05-04', CURRENCIES.slice(0, 2));
    // The first file written fails every time.
    const { storage: failing } = storageFailing((key, writes) => key === writes[0]);
    const { result } = await withActivities(platform, createSettlementActivities({ db: platform.db, storage: failing }), (taskQueue) =>
      settleInRuns('2026-05-04', { batchSize: 3, batchesPerRun: 50 }, taskQueue),
    );
    expect(result).toEqual({ day: '2026-05-04', settlements, filesSucceeded: 2 * settlements - 1, filesFailed: 1, unassignedLines: 0 });
    const files = (await settlementsOf('2026-05-04')).flatMap((settlement) => settlement.files);
    expect(files.filter((file) => file.status === 'FAILED').map((file) => [file.storageKey, file.failureReason])).toEqual([
      [null, expect.stringMatching(/^SETTLEMENT_FILES_FAILED: 1 of \d+ settlement files failed; first: storage refused settlements\/sttl_\S+$/)],
    ]);

    const again = await settleInRuns('2026-05-04', { batchSize: 3, batchesPerRun: 50 });
    expect(again.result).toEqual({ day: '2026-05-04', settlements: 1, filesSucceeded: 1, filesFailed: 0, unassignedLines: 0 });
    await expectEveryFileBuilt('2026-05-04');
  });
});
