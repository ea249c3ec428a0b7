import { ApiError } from '../../domain/errors';
import { passwordHashSlots } from '../../services/dashboard/password-hash-slots';
import { usePlatform } from '../support/platform';
import { BrowserSession, serverWithClock } from './browser-session';

// Read when the process's slots are first used: one hash at a time, hardly any wait.
process.env.DASHBOARD_PASSWORD_HASHES_AT_ONCE = '1';
process.env.DASHBOARD_PASSWORD_HASH_WAIT_MS = '1';

/** docs/dashboard.md, "Security": at most N argon2 hashes at once in a process; the rest wait briefly, then 429. */
describe('password hash slots', () => {
  const held = () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    return { done, release };
  };

  it('runs at most `atOnce` at a time; one that waits longer than `waitMs` is refused 429 RATE_LIMIT with next_try_at', async () => {
    const slots = passwordHashSlots({ atOnce: 2, waitMs: 50 });
    let running = 0;
    let most = 0;
    const work = (gate: Promise<void>) =>
      slots(async () => {
        running++;
        most = Math.max(most, running);
        await gate;
        running--;
        return 'hashed';
      });
    const first = held();
    const second = held();
    const a = work(first.done);
    const b = work(second.done);
    const started = Date.now();
    const refused = await work(Promise.resolve()).catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) } });

    const waiting = work(Promise.resolve());
    first.release();
    await expect(waiting).resolves.toBe('hashed');
    second.release();
    await expect(Promise.all([a, b])).resolves.toEqual(['hashed', 'hashed']);
    expect(most).toBe(2);
  });

  it('serves a normal caller before the low-priority ones that waited longer (sign-ins of unknown clients)', async () => {
    const slots = passwordHashSlots({ atOnce: 1, waitMs: 5000 });
    const order: string[] = [];
    const busy = held();
    const running = slots(() => busy.done);
    const unknown = [1, 2].map((n) => slots(async () => order.push(`unknown ${n}`), 'low'));
    const known = slots(async () => order.push('known'), 'normal');
    busy.release();
    await Promise.all([running, known, ...unknown]);
    expect(order).toEqual(['known', 'unknown 1', 'unknown 2']);
  });

  it('gives the slot back when the work fails', async () => {
    const slots = passwordHashSlots({ atOnce: 1, waitMs: 50 });
    await expect(slots(async () => Promise.reject(new Error('argon2 failed')))).rejects.toThrow('argon2 failed');
    await expect(slots(async () => 'next')).resolves.toBe('next');
  });
});

describe('the process bound on sign-in and accept-invitation', () => {
  const platform = usePlatform();

  it('answers the excess of a burst of sign-ins 429 RATE_LIMIT with Retry-After instead of hashing them all at once', async () => {
    const { server, baseUrl } = await serverWithClock(platform, { now: new Date() }, { trustProxy: true });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          new BrowserSession(() => baseUrl).post(
            '/dashboard/api/session/sign-in',
            { email: `burst${i}@example.test`, password: 'password1' },
            { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } },
          ),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toContain(401);
      const refused = answers.find((answer) => answer.status === 429);
      expect(refused).toMatchObject({ body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
