import { Agent, request as httpRequest } from 'node:http';
import { usePlatform } from '../support/platform';
import { serverWithClock } from './browser-session';

/** docs/dashboard.md, "Security", and docs/rate-limits.md: a public route's 429 is held, not answered at once. */
const platform = usePlatform();

interface RawAnswer {
  status: number;
  connection?: string;
  body: any;
  tookMs: number;
}

/** One request on a kept-alive connection of its own, with the raw headers (fetch hides `connection`). */
function post(baseUrl: string, path: string, body: string, address: string): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${baseUrl}${path}`,
      { method: 'POST', agent: new Agent({ keepAlive: true }), headers: { 'content-type': 'application/json', 'x-forwarded-for': address } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode!, connection: response.headers.connection, body: text ? JSON.parse(text) : undefined, tookMs: performance.now() - started }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the refusal tarpit of the public dashboard routes', () => {
  const clock = { now: new Date() };
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  const settings = {
    DASHBOARD_PUBLIC_REQUESTS_PER_MINUTE: '1',
    DASHBOARD_PUBLIC_REFUSAL_HOLD_MS: '600',
    DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS: '1',
  };
  beforeAll(async () => {
    Object.assign(process.env, settings);
    server = await serverWithClock(platform, clock, { trustProxy: true });
  });
  afterAll(async () => {
    for (const name of Object.keys(settings)) delete process.env[name];
    await server.server.close();
  });
  const invitation = (address: string, body = JSON.stringify({ token: 'bogus' })) => post(server.baseUrl, '/dashboard/api/session/invitation', body, address);

  it('holds the 429 of an address over its limit until its retry time, at most DASHBOARD_PUBLIC_REFUSAL_HOLD_MS', async () => {
    expect((await invitation('198.51.100.120')).status).toBe(422);
    const refused = await invitation('198.51.100.120');
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
    // Its retry time is a minute away: the hold is the cap.
    expect(refused.tookMs).toBeGreaterThanOrEqual(590);
    expect(refused.connection).not.toBe('close');
  });

  it('answers at once and closes the connection past the bound of held refusals per address', async () => {
    expect((await invitation('198.51.100.121')).status).toBe(422);
    const [first, second] = await Promise.all([invitation('198.51.100.121'), invitation('198.51.100.121')]);
    const [held, excess] = first!.tookMs > second!.tookMs ? [first!, second!] : [second!, first!];
    expect(held).toMatchObject({ status: 429 });
    expect(held.tookMs).toBeGreaterThanOrEqual(590);
    expect(excess).toMatchObject({ status: 429, connection: 'close', body: { code: 'RATE_LIMIT' } });
    expect(excess.tookMs).toBeLessThan(400);
  });

  it('refuses an address over its limit before reading its body', async () => {
    expect((await invitation('198.51.100.122')).status).toBe(422);
    expect(await invitation('198.51.100.122', '{"token": not json')).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT' } });
  });
});
