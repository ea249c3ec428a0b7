import { ApiMetrics } from '../../api/http/metrics';
import { processMetrics } from '../../services/metrics/process-metrics';
import { usePlatform } from '../support/platform';
import { samplesOf, valueOf, type Sample } from './prometheus-text';

// Three requests per operation and key, then 429: enough for the replay test, and the fourth list is refused.
// The process's metrics as api/main.ts hands them in.
const platform = usePlatform({ quota: { ratePerSecond: 0.001, burst: 3 }, metrics: new ApiMetrics(processMetrics()) });

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${platform.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return samplesOf(await response.text());
}

const requests = (samples: Sample[], operation: string, status: string) =>
  valueOf(samples, 'billing_api_request_duration_seconds_count', { operation, status }) ?? 0;

describe('GET /metrics on the API', () => {
  it('counts requests by operation and status with their latency, idempotent replays and rate-limit refusals', async () => {
    const headers = { 'idempotency-key': 'metrics-replay-1' };
    const first = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'metrics@example.com' }, { headers });
    const again = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'metrics@example.com' }, { headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await platform.call('/v2/customers/create', { type: 'NOT_A_TYPE' })).status).toBe(400);

    const listed = [];
    for (let i = 0; i < 4; i++) listed.push((await platform.call('/v2/customers/list', {})).status);
    expect(listed).toEqual([200, 200, 200, 429]);
    expect((await platform.call('/v2/no-such/thing', {})).status).toBe(404);

    const samples = await scrape();
    expect(requests(samples, 'customers/create', '200')).toBe(2);
    expect(requests(samples, 'customers/create', '400')).toBe(1);
    expect(requests(samples, 'customers/list', '200')).toBe(3);
    expect(requests(samples, 'customers/list', '429')).toBe(1);
    // An unknown path is one label value, whatever was asked: a scanner cannot blow up the series.
    expect(requests(samples, 'unmatched', '404')).toBe(1);
    expect(samples.some((s) => s.labels.operation?.includes('no-such'))).toBe(false);

    // The histogram: every request in the +Inf bucket, a positive total time.
    expect(valueOf(samples, 'billing_api_request_duration_seconds_bucket', { operation: 'customers/create', status: '200', le: '+Inf' })).toBe(2);
    expect(valueOf(samples, 'billing_api_request_duration_seconds_sum', { operation: 'customers/create', status: '200' })).toBeGreaterThan(0);

    expect(valueOf(samples, 'billing_api_idempotent_replays_total', { operation: 'customers/create' })).toBe(1);
    expect(valueOf(samples, 'billing_api_idempotent_replays_total', { operation: 'customers/list' })).toBeUndefined();
    expect(valueOf(samples, 'billing_api_rate_limit_refusals_total', { operation: 'customers/list' })).toBe(1);
    expect(valueOf(samples, 'billing_api_rate_limit_refusals_total', { operation: 'customers/create' })).toBeUndefined();
    // The process's own metrics come along.
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts the next replay and refusal as they happen', async () => {
    const before = await scrape();
    const headers = { 'idempotency-key': 'metrics-replay-1' };
    // The create bucket is empty by now: the replay is refused before the key is looked at.
    expect((await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'metrics@example.com' }, { headers })).status).toBe(429);
    const after = await scrape();
    const refusals = (samples: Sample[]) => valueOf(samples, 'billing_api_rate_limit_refusals_total', { operation: 'customers/create' }) ?? 0;
    expect(refusals(after) - refusals(before)).toBe(1);
    expect(requests(after, 'customers/create', '429') - requests(before, 'customers/create', '429')).toBe(1);
    // A scrape is not a request of the API: it does not count itself.
    expect(after.some((s) => s.labels.operation === '/metrics')).toBe(false);
  });

  // Last: the probe of the public port is itself a request the counters above would see.
  it('is served on the operator listener only, not on the public port beside /v2', async () => {
    const response = await fetch(`${platform.baseUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('billing_api_request_duration_seconds');
    expect(new URL(platform.metricsUrl!).port).not.toBe(new URL(platform.baseUrl).port);
  });
});
