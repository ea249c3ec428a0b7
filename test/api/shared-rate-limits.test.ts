import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../api/http/server';
import { PostgresRateLimiter } from '../../api/rate-limit/postgres-buckets';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

/** Two API processes in all but the process: each its own server and limiter, one database. */
async function twoApis(quota: { ratePerSecond: number; burst: number }): Promise<{ urls: string[]; close: () => Promise<void> }> {
  const servers: FastifyInstance[] = [];
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const server = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new PostgresRateLimiter(platform.db, () => quota) });
    urls.push(await server.listen({ port: 0, host: '127.0.0.1' }));
    servers.push(server);
  }
  return { urls, close: async () => void (await Promise.all(servers.map((s) => s.close()))) };
}

const getKeys = (url: string) =>
  fetch(`${url}/v2/api-keys/list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.rootSecret}` }, body: '{}' }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

describe('rate limits shared by every API process (RATE_LIMIT_STORE=postgres, docs/rate-limits.md)', () => {
  it('two processes admit one burst between them, not one each, and name when a token is back', async () => {
    const apis = await twoApis({ ratePerSecond: 0.1, burst: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await getKeys(apis.urls[i % 2]!)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      const refused = await getKeys(apis.urls[0]!);
      expect(refused.body.code).toBe('RATE_LIMIT');
      const nextTry = Date.parse(refused.body.context.next_try_at);
      // One token at 0.1 per second: back within ten seconds of the last refill.
      expect(nextTry).toBeGreaterThan(Date.now());
      expect(nextTry).toBeLessThanOrEqual(Date.now() + 10_000);
    } finally {
      await apis.close();
    }
  });

  it('concurrent requests through both processes take exactly the burst', async () => {
    await platform.db.$executeRaw`DELETE FROM rate_limit_buckets`;
    const apis = await twoApis({ ratePerSecond: 0.01, burst: 7 });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => getKeys(apis.urls[i % 2]!)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(23);
    } finally {
      await apis.close();
    }
  });

  it('refills with time on the database clock', async () => {
    await platform.db.$executeRaw`DELETE FROM rate_limit_buckets`;
    // One token per 2 s: the second process's first request is its coldest (plans compiled on a
    // loaded machine), and at 5 per second it could take the 200 ms a token needs to come back.
    const apis = await twoApis({ ratePerSecond: 0.5, burst: 1 });
    try {
      expect((await getKeys(apis.urls[0]!)).status).toBe(200);
      expect((await getKeys(apis.urls[1]!)).status).toBe(429);
      await new Promise((done) => setTimeout(done, 2_100));
      expect((await getKeys(apis.urls[1]!)).status).toBe(200);
    } finally {
      await apis.close();
    }
  });
});
