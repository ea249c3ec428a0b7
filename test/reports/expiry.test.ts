import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import { newId } from '../../domain/ids';
import { reportWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import { REPORT_FAILURE_REASON } from '../../workflows/report-export';
import { usePlatform } from '../support/platform';
import { reports } from './fixtures';

const platform = usePlatform();
let r: ReturnType<typeof reports>;

beforeAll(async () => {
  r = reports(platform);
});

const DAY = 24 * 60 * 60 * 1000;

describe('report expiry', () => {
  it('removes the file 30 days after creation by a durable timer, survives a worker restart, and refuses downloads after', async () => {
    const created = await r.ok('reports/create', { report_type: 'INVOICES', date_from: '2026-01-01T00:00:00Z', date_to: '2026-02-01T00:00:00Z' });
    const done = await r.waitForStatus(created.id, 'SUCCEEDED');
    const storage = fileStorageFromEnv();
    expect(await storage.read(done.storageKey!)).toBeDefined();
    const link = (await r.download(created.id)).headers.get('location')!;
    expect((await fetch(link)).status).toBe(200);

    await platform.restartWorker();
    await platform.env.sleep(30 * DAY - 60_000);
    expect((await platform.db.report.findUnique({ where: { id: created.id } }))!.status).toBe('SUCCEEDED');
    expect(await storage.read(done.storageKey!)).toBeDefined();

    await platform.env.sleep(2 * 60_000);
    const expired = await r.waitForStatus(created.id, 'EXPIRED');
    expect(expired.storageKey).toBeNull();
    expect(await storage.read(done.storageKey!)).toBeUndefined();

    const refused = await r.download(created.id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'EXPIRED' } });
    // A link handed out before the expiry, still within its own five minutes, finds nothing.
    expect((await fetch(link)).status).toBe(404);
    const listed = await r.ok('reports/list', {});
    expect(listed.items.find((item: any) => item.id === created.id)).toMatchObject({ status: 'EXPIRED', expires_at: created.expires_at });
  });

  it('marks a report FAILED with a fixed reason once every export attempt failed, and still expires it', async () => {
    const now = new Date();
    const report = await platform.db.report.create({
      data: {
        id: newId('report'),
        accountId: platform.accountId,
        apiKeyId: 'akey_fixture',
        channelIds: [],
        reportType: 'INVOICES',
        dateFrom: new Date('2026-01-01T00:00:00Z'),
        dateTo: new Date('2026-02-01T00:00:00Z'),
        status: 'PROCESSING',
        expiresAt: new Date(now.getTime() + DAY),
        createdAt: now,
        updatedAt: now,
      },
    });
    // A file where the report's folder should be: every attempt to write the CSV fails.
    await mkdir(join(process.env.STORAGE_DIR!, 'reports'), { recursive: true });
    await writeFile(join(process.env.STORAGE_DIR!, 'reports', report.id), 'in the way');

    const handle = await platform.env.client.workflow.start('reportExportWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: reportWorkflowId(report.id),
      args: [{ reportId: report.id, expiresAt: report.expiresAt.toISOString() }],
    });
    // Awaiting the result lets the test server skip the retry back-off and the expiry timer.
    expect(await handle.result()).toEqual({ status: 'EXPIRED' });
    const attempts = (await handle.fetchHistory()).events!.filter((event) => event.activityTaskStartedEventAttributes).map((event) => event.activityTaskStartedEventAttributes!.attempt);
    expect(attempts).toContain(6);
    const after = await platform.db.report.findUnique({ where: { id: report.id } });
    expect(after).toMatchObject({ status: 'EXPIRED', failureReason: REPORT_FAILURE_REASON, rowCount: null, storageKey: null });
  });
});
