import { reportPages, type ReportScope } from '../../activities/report-export';
import { newId } from '../../domain/ids';
import { usePlatform } from '../support/platform';
import { insertSubscription } from './fixtures';

const platform = usePlatform();

describe('the export reads one statement', () => {
  it('holds the records as they were when the export started: one committed while it runs is not in the file', async () => {
    const channelId = platform.channelIds[0]!;
    const customerId = newId('customer');
    const now = new Date();
    await platform.db.customer.create({
      data: { id: customerId, accountId: platform.accountId, channelId, type: 'INDIVIDUAL', email: 'ada@example.com', tax: { taxability: 'TAXABLE' }, status: 'ACTIVE', createdAt: now, updatedAt: now },
    });
    const day = (n: number) => new Date(`2026-03-0${n}T00:00:00Z`);
    const first = await insertSubscription(platform, { channelId, customerId, createdAt: day(1), lines: 1 });
    const second = await insertSubscription(platform, { channelId, customerId, createdAt: day(2), lines: 1 });
    const scope: ReportScope = {
      reportType: 'SUBSCRIPTIONS',
      accountId: platform.accountId,
      channelIds: [],
      dateFrom: day(1),
      dateTo: new Date('2026-04-01T00:00:00Z'),
      linksValidUntil: new Date(Date.now() + 86_400_000),
    };

    const ids: string[] = [];
    let late: string | undefined;
    // Pages of one row: the export is under way when the later subscription commits, inside its range.
    for await (const page of reportPages(platform.db, scope, 1)) {
      ids.push(...page.map((row) => row[0] as string));
      late ??= await insertSubscription(platform, { channelId, customerId, createdAt: day(3), lines: 1 });
    }

    expect(late).toBeDefined();
    expect(ids).toEqual([first, second]);
  });
});
