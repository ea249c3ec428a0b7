import { MockActivityEnvironment } from '@temporalio/testing';
import { heartbeating } from '../../activities/heartbeating';
import { CHARGE_HEARTBEAT_EVERY_MS, CHARGE_HEARTBEAT_TIMEOUT_MS } from '../../domain/charge-heartbeats';

describe('a charging activity heartbeats while it works (domain/charge-heartbeats.ts)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats every few seconds, well inside the timeout, until the work settles, then stops', async () => {
    expect(CHARGE_HEARTBEAT_EVERY_MS * 2).toBeLessThanOrEqual(CHARGE_HEARTBEAT_TIMEOUT_MS);
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    let finish!: (value: string) => void;
    const running = env.run(() => heartbeating(() => new Promise<string>((resolve) => (finish = resolve))));

    jest.advanceTimersByTime(CHARGE_HEARTBEAT_EVERY_MS * 3);
    expect(beats).toBe(3);
    finish('charged');
    await expect(running).resolves.toBe('charged');
    jest.advanceTimersByTime(CHARGE_HEARTBEAT_EVERY_MS * 3);
    expect(beats).toBe(3);
  });

  it('does not beat in a local activity, whose workflow task is what times out', async () => {
    const env = new MockActivityEnvironment({ isLocal: true });
    let beats = 0;
    env.on('heartbeat', () => beats++);
    let finish!: (value: string) => void;
    const running = env.run(() => heartbeating(() => new Promise<string>((resolve) => (finish = resolve))));

    jest.advanceTimersByTime(CHARGE_HEARTBEAT_EVERY_MS * 3);
    finish('charged');
    await expect(running).resolves.toBe('charged');
    expect(beats).toBe(0);
  });

  it('stops beating when the work fails, and passes the failure on', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const failing = env.run(() => heartbeating(() => Promise.reject(new Error('provider down'))));
    await expect(failing).rejects.toThrow('provider down');
    jest.advanceTimersByTime(CHARGE_HEARTBEAT_EVERY_MS * 2);
    expect(beats).toBe(0);
  });
});
