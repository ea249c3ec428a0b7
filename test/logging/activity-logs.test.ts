import { workerRuntime } from '../../worker/runtime-options';
import { startPlatform, type Platform } from '../support/platform';

const lines: Array<Record<string, unknown>> = [];
let platform: Platform;

beforeAll(async () => {
  // The worker process's Runtime (worker/main.ts) in JSON, down to the SDK's per-activity debug lines.
  const runtime = await workerRuntime({}, { level: 'debug', format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  platform = await startPlatform({ runtime: runtime.options });
});

afterAll(() => platform?.stop());

async function reportFinished(id: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const report = await platform.db.report.findUnique({ where: { id } });
    if (report?.status === 'SUCCEEDED') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`report ${id} did not finish`);
}

describe('activity logs', () => {
  it('carry the workflow id, workflow type, activity type and attempt on every line, as JSON', async () => {
    const created = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: '2026-01-01T00:00:00Z', date_to: '2026-02-01T00:00:00Z' });
    expect(created.status).toBe(200);
    await reportFinished(created.body.id);
    // The Runtime's logger buffers forwarded lines for 100 ms to order them.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const activityLines = lines.filter((line) => line.sdkComponent === 'activity' || line.activityType !== undefined);
    const ofReport = activityLines.filter((line) => String(line.workflowId).includes(created.body.id));
    expect(ofReport.map((line) => line.msg)).toEqual(expect.arrayContaining(['Activity started', 'Activity completed']));
    for (const line of activityLines) {
      expect(line).toMatchObject({ name: 'worker', level: expect.any(String), time: expect.any(String) });
      expect(line.workflowId).toEqual(expect.any(String));
      expect(line.workflowType).toEqual(expect.any(String));
      expect(line.activityType).toEqual(expect.any(String));
      expect(line.attempt).toEqual(expect.any(Number));
      // The task token completes the activity from outside: it is never logged.
      expect(line.taskToken).toBeUndefined();
    }
  });
});
