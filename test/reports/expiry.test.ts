import { fileStorageFromEnv } from '../../activities/storage/config';
import { startPlatform, type Platform } from '../support/platform';
import { reports } from './fixtures';

let platform: Platform;
let r: ReturnType<typeof reports>;

beforeAll(async () => {
  platform = await startPlatform();
  r = reports(platform);
});

afterAll(() => platform?.stop());

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
});
