import { Client, Connection } from '@temporalio/client';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { freePort } from '../../scripts/net/free-port';
import { READINESS_TTL_MS } from '../../services/health/readiness';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const get = async (baseUrl: string, path: string) => {
  const response = await fetch(`${baseUrl}${path}`);
  return { status: response.status, body: (await response.json()) as any };
};

describe('health probes (docs/deployment.md, "Health")', () => {
  it('live answers without credentials; ready checks the database, the migrations and Temporal', async () => {
    expect(await get(platform.baseUrl, '/health/live')).toEqual({ status: 200, body: { status: 'live' } });
    const ready = await get(platform.baseUrl, '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    for (const name of ['database', 'migrations', 'temporal']) expect(ready.body.checks[name]).toMatchObject({ ok: true, ms: expect.any(Number) });
  });

  it('is not ready while a migration this build ships is not applied, once its last answer is a few seconds old', async () => {
    expect((await get(platform.baseUrl, '/health/ready')).status).toBe(200);
    const [last] = await platform.db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await platform.db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${last!.migration_name}`;
    try {
      // A probe within the window is the last check's answer: probes cost no queries each.
      expect((await get(platform.baseUrl, '/health/ready')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, READINESS_TTL_MS));
      const ready = await get(platform.baseUrl, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.checks.migrations).toMatchObject({ ok: false, problem: `1 migration(s) not applied, first ${last!.migration_name}` });
      expect(ready.body.checks.database.ok).toBe(true);
    } finally {
      await platform.db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${last!.migration_name}`;
    }
  });

  it('is not ready, within the check timeout, when Temporal does not answer; live still answers', async () => {
    // No retry interceptor: the SDK's would go on retrying after the connection is closed below
    // and throw from a timer once the test has ended.
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, interceptors: [] });
    const server = buildServer({
      db: platform.db,
      temporal: new Client({ connection, namespace: 'default' }),
      rateLimiter: new RateLimiter(() => ({ ratePerSecond: 100, burst: 100 })),
    });
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const started = Date.now();
      const ready = await get(address, '/health/ready');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ready.status).toBe(503);
      expect(ready.body.checks.temporal.ok).toBe(false);
      expect(ready.body.checks.database.ok).toBe(true);
      expect(JSON.stringify(ready.body)).not.toMatch(/127\.0\.0\.1/);
      expect((await get(address, '/health/live')).status).toBe(200);
    } finally {
      await server.close();
      await connection.close().catch(() => undefined);
    }
  });
});
