import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createDatabase, type Database } from '../../prisma/client';
import { readDailyRevenue } from '../../services/metrics/daily-revenue';
import { foldMetricsDayChanges } from '../../services/metrics/fold-day-changes';
import { readMrrHistory } from '../../services/metrics/mrr-history';
import { readOverview } from '../../services/metrics/overview';
import { readSubscriptionCounts } from '../../services/metrics/subscription-counts';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { apiClient } from './api-client';
import { API_POOL_SIZE, startApiUnderTest } from './processes';

/**
 * `npm run bench:metrics` (docs/benchmarks.md, docs/metrics.md): one account holding
 * BENCH_INVOICES invoices (default 1,000,000) created evenly over the last 365 days, each with one
 * payment (2 % DECLINED with one of six decline codes and left in DUNNING, 1 % FAILED, the rest
 * SUCCEEDED), 1 % of them refunded in part, 1 % with a credit note, and BENCH_SUBSCRIPTIONS
 * subscriptions (default 100,000) created over the last 400 days with their status history
 * (PENDING, then ACTIVE a minute later, its first_active_at, then for 30 % a later status: CANCELLED, UNPAID,
 * REDEMPTION; TRIALING and PENDING ones stay so), all in EUR, written by SQL in the database
 * (INSERT … SELECT generate_series: a million rows never pass through Node).
 *
 * The seed's payments and refunds reach the daily roll-up through its triggers, as any write
 * does; the changes they leave are folded in once, timed, before the requests, as the roll-up
 * workflow would have done over the year.
 *
 * Then BENCH_REQUESTS sequential requests (default 200, after 20 to warm up) of each metrics
 * operation as the dashboard asks them (no body: this month, the main currency), and of the two
 * that take a period for the Overview's longest choices too (the last 90 days, and a custom
 * 366 days, the longest allowed), p50 and p99, beside the ceiling in the same run: the same
 * service functions called in this process over a pool of the API's size, so the same
 * statements without HTTP, authentication and validation.
 */
const ROOT = resolve(__dirname, '../..');
const INVOICES = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = 20;
const TARGET_P99_MS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(step: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await step();
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    await step();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

/** The rows above, for the account; exported for a look at the plans over the same data (EXPLAIN). */
export async function seed(client: Client, accountId: string, channelId: string): Promise<void> {
  const values = [accountId, channelId, INVOICES];
  // Invoice g is created (365 days × g / N) before now; its payment a second later.
  await client.query(
    `INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due, amount_paid, amount_details, discounts,
                           billing_reason, collection_method, finalized_at, paid_at, created_at, updated_at)
     SELECT 'in_bench' || lpad(g::text, 8, '0'), $1, $2, 'cus_bench' || (g % 1000), CASE WHEN g % 50 = 0 THEN 'DUNNING' WHEN g % 97 = 0 THEN 'OPEN' ELSE 'PAID' END, 'EUR',
            1000 + (g * 37) % 49000, CASE WHEN g % 50 = 0 OR g % 97 = 0 THEN 1000 + (g * 37) % 49000 ELSE 0 END,
            CASE WHEN g % 50 = 0 OR g % 97 = 0 THEN 0 ELSE 1000 + (g * 37) % 49000 END, '{}'::jsonb, '[]'::jsonb, 'MANUAL', 'CHARGE_AUTOMATICALLY', t, t, t, t
     FROM generate_series(1, $3::int) AS g, LATERAL (SELECT now() - (g::float8 / $3::int) * interval '365 days' AS t) AS at`,
    values,
  );
  await client.query(
    `INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, invoice_id, idempotency_key, amount, currency, status, decline_code,
                           retryable, provider, attempts, created_at, updated_at)
     SELECT 'pay_bench' || lpad(g::text, 8, '0'), $1, $2, 'cus_bench' || (g % 1000), 'pi_bench' || (g % 1000), 'in_bench' || lpad(g::text, 8, '0'),
            'bench/' || g, 1000 + (g * 37) % 49000, 'EUR', CASE WHEN g % 50 = 0 THEN 'DECLINED' WHEN g % 97 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END,
            CASE WHEN g % 50 = 0 THEN (ARRAY['insufficient_funds', 'do_not_honor', 'expired_card', 'card_declined', 'lost_card', 'processing_error'])[1 + (g / 50) % 6]
                 WHEN g % 97 = 0 THEN 'providers_unavailable' END,
            false, 'sandbox-alpha', '[]'::jsonb, t, t
     FROM generate_series(1, $3::int) AS g, LATERAL (SELECT now() - (g::float8 / $3::int) * interval '365 days' + interval '1 second' AS t) AS at`,
    values,
  );
  await client.query(
    `INSERT INTO refunds (id, account_id, invoice_id, payment_id, amount, status, provider, idempotency_key, created_at, updated_at)
     SELECT 're_bench' || lpad(g::text, 8, '0'), $1, 'in_bench' || lpad(g::text, 8, '0'), 'pay_bench' || lpad(g::text, 8, '0'), 500, 'SUCCEEDED', 'sandbox-alpha',
            'bench-refund/' || g, t, t
     FROM generate_series(3, $2::int, 100) AS g, LATERAL (SELECT now() - (g::float8 / $2::int) * interval '365 days' + interval '1 hour' AS t) AS at`,
    [accountId, INVOICES],
  );
  await client.query(
    `INSERT INTO credit_notes (id, account_id, channel_id, invoice_id, customer_id, number, status, currency, reason, origin, total_amount, tax_amount,
                               pre_payment_amount, refund_amount, balance_credit_amount, out_of_band_amount, created_at, updated_at)
     SELECT 'cn_bench' || lpad(g::text, 8, '0'), $1, $2, 'in_bench' || lpad(g::text, 8, '0'), 'cus_bench' || (g % 1000), g, 'ISSUED', 'EUR', 'OTHER', 'API',
            900, 0, 0, 0, 600, 300, t, t
     FROM generate_series(7, $3::int, 100) AS g, LATERAL (SELECT now() - (g::float8 / $3::int) * interval '365 days' + interval '2 hours' AS t) AS at`,
    values,
  );
  // Subscription k: kind k % 20 (0–13 ACTIVE, 14 REDEMPTION, 15 TRIALING, 16 UNPAID, 17–18 CANCELLED, 19 PENDING).
  const subscriptions = [accountId, channelId, SUBSCRIPTIONS];
  await client.query(
    `INSERT INTO subscriptions (id, account_id, channel_id, customer_id, status, currency, monthly_amount, first_active_at, created_at, updated_at)
     SELECT 'subs_bench' || lpad(k::text, 7, '0'), $1, $2, 'cus_bench' || (k % 1000),
            CASE WHEN k % 20 < 14 THEN 'ACTIVE' WHEN k % 20 = 14 THEN 'REDEMPTION' WHEN k % 20 = 15 THEN 'TRIALING' WHEN k % 20 = 16 THEN 'UNPAID'
                 WHEN k % 20 < 19 THEN 'CANCELLED' ELSE 'PENDING' END,
            'EUR', 1000 + (k % 50) * 100, CASE WHEN k % 20 NOT IN (15, 19) THEN t + interval '1 minute' END, t, t
     FROM generate_series(1, $3::int) AS k, LATERAL (SELECT now() - (k::float8 / $3::int) * interval '400 days' AS t) AS at`,
    subscriptions,
  );
  await client.query(
    `INSERT INTO subscription_status_changes (id, account_id, subscription_id, from_status, to_status, cause, version, occurred_at)
     SELECT 'ssch_bench' || lpad(k::text, 7, '0') || '_' || v, $2, 'subs_bench' || lpad(k::text, 7, '0'), f, s, NULL, v, t
     FROM generate_series(1, $1::int) AS k,
          LATERAL (SELECT now() - (k::float8 / $1::int) * interval '400 days' AS created) AS c,
          LATERAL (VALUES
            (1, NULL, CASE WHEN k % 20 = 15 THEN 'TRIALING' ELSE 'PENDING' END, c.created),
            (2, 'PENDING', 'ACTIVE', c.created + interval '1 minute'),
            (3, 'ACTIVE', CASE WHEN k % 20 = 14 THEN 'REDEMPTION' WHEN k % 20 = 16 THEN 'UNPAID' ELSE 'CANCELLED' END,
               c.created + (now() - c.created) * ((k % 7 + 1)::float8 / 8))
          ) AS v(v, f, s, t)
     WHERE v.v = 1 OR (v.v = 2 AND k % 20 NOT IN (15, 19)) OR (v.v = 3 AND k % 20 IN (14, 16, 17, 18))`,
    [SUBSCRIPTIONS, accountId],
  );
  await client.query('VACUUM ANALYZE invoices, payments, refunds, credit_notes, subscriptions, subscription_status_changes');
}

const PAYMENT_PATH_WRITES = Number(process.env.BENCH_PAYMENT_WRITES ?? 10_000);

/**
 * What the roll-up's triggers add to the payment path: PAYMENT_PATH_WRITES payments inserted
 * PROCESSING then settled SUCCEEDED, one connection, each statement its own commit, as a charge
 * writes them, in three rounds alternating with the triggers disabled (the ceiling). Returns the
 * microseconds per payment of each, rounds in order.
 */
async function paymentPathCost(client: Client, accountId: string): Promise<{ without: number[]; withTriggers: number[] }> {
  const result = { without: [] as number[], withTriggers: [] as number[] };
  for (let round = 0; round < 6; round++) {
    const triggers = round % 2 === 1;
    await client.query(`ALTER TABLE payments ${triggers ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
    const started = performance.now();
    for (let i = 0; i < PAYMENT_PATH_WRITES; i++) {
      const id = `pay_path${round}_${i}`;
      await client.query(
        `INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, idempotency_key, amount, currency, status, attempts, created_at, updated_at)
         VALUES ($1, $2, 'chan_path', 'cus_path', 'pi_path', $1, 1000, 'EUR', 'PROCESSING', '[]'::jsonb, now(), now())`,
        [id, accountId],
      );
      await client.query(`UPDATE payments SET status = 'SUCCEEDED', updated_at = now() WHERE id = $1`, [id]);
    }
    (triggers ? result.withTriggers : result.without).push(((performance.now() - started) * 1000) / PAYMENT_PATH_WRITES);
  }
  await client.query('ALTER TABLE payments ENABLE TRIGGER USER');
  return result;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-metrics-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  let db: Database | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    db = createDatabase(databaseUrl, API_POOL_SIZE);
    const account = await createAccount(db, 'bench-metrics');
    const channel = await createChannel(db, account.id, 'bench-metrics');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench-metrics' });
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const seedStarted = performance.now();
    try {
      await seed(client, account.id, channel.id);
    } finally {
      await client.end();
    }
    const seedS = (performance.now() - seedStarted) / 1000;
    const foldStarted = performance.now();
    const { folded } = await foldMetricsDayChanges(db);
    const foldS = (performance.now() - foldStarted) / 1000;

    // The Overview's choices (dashboard/src/components/overview/periods.ts): whole UTC days up to tomorrow's midnight.
    const tomorrow = Math.ceil((Date.now() + 1) / 86_400_000) * 86_400_000;
    const lastDays = (days: number) => ({ from: tomorrow - days * 86_400_000, to: tomorrow });
    const body = (period: { from: number; to: number }) => ({ period: { from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString() } });
    const cases: { operation: string; label: string; body: object; ceiling: () => Promise<unknown> }[] = [
      { operation: 'metrics/get-overview', label: '', body: {}, ceiling: () => readOverview(db!, account.id, {}, Date.now()) },
      { operation: 'metrics/get-daily-revenue', label: '', body: {}, ceiling: () => readDailyRevenue(db!, account.id, {}, Date.now()) },
      { operation: 'metrics/get-mrr-history', label: '', body: {}, ceiling: () => readMrrHistory(db!, account.id, {}, Date.now()) },
      { operation: 'metrics/get-subscription-counts', label: '', body: {}, ceiling: () => readSubscriptionCounts(db!, account.id, {}, Date.now()) },
    ];
    for (const days of [90, 366]) {
      const period = lastDays(days);
      cases.push(
        { operation: 'metrics/get-overview', label: `, ${days} days`, body: body(period), ceiling: () => readOverview(db!, account.id, { period }, Date.now()) },
        { operation: 'metrics/get-daily-revenue', label: `, ${days} days`, body: body(period), ceiling: () => readDailyRevenue(db!, account.id, { period }, Date.now()) },
      );
    }
    const api = await startApiUnderTest(ROOT, databaseUrl);
    const rows: { operation: string; api: number[]; ceiling: number[] }[] = [];
    try {
      const post = apiClient(`http://127.0.0.1:${api.port}`, secret);
      const overview = await post('metrics/get-overview', {});
      console.log(`seeded in ${seedS.toFixed(0)} s: ${INVOICES.toLocaleString('en')} invoices and payments, ${SUBSCRIPTIONS.toLocaleString('en')} subscriptions`);
      console.log(`daily roll-up: ${folded.toLocaleString('en')} changes folded in ${foldS.toFixed(1)} s (${Math.round(folded / foldS).toLocaleString('en')} a second)`);
      console.log(`this month: gross ${overview.gross_volume.current}, MRR ${overview.mrr.current}, failed ${JSON.stringify(overview.failed_payments.current)}, dunning ${overview.dunning.invoice_count}`);
      console.log(`${REQUESTS} sequential requests each (after ${WARM_UP}), no body (this month, the main currency) unless a period is named:`);
      for (const { operation, label, body: request, ceiling } of cases) {
        const row = { operation: `${operation}${label}`, api: await timed(() => post(operation, request)), ceiling: await timed(ceiling) };
        rows.push(row);
        console.log(
          `  ${row.operation.padEnd(34)} API p50 ${percentile(row.api, 50).toFixed(1)} ms  p99 ${percentile(row.api, 99).toFixed(1)} ms   ceiling (services in process) p50 ${percentile(row.ceiling, 50).toFixed(1)} ms  p99 ${percentile(row.ceiling, 99).toFixed(1)} ms`,
        );
      }
    } finally {
      await api.stop();
    }
    const worst = Math.max(...rows.map((row) => percentile(row.api, 99)));
    console.log(`  check p99 ≤ ${TARGET_P99_MS} ms for every operation: ${worst <= TARGET_P99_MS ? 'met' : 'NOT met'} (worst ${worst.toFixed(1)} ms)`);
    const pathClient = new Client({ connectionString: databaseUrl });
    await pathClient.connect();
    try {
      const cost = await paymentPathCost(pathClient, account.id);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
      const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
      console.log(`the roll-up on the payment path: ${PAYMENT_PATH_WRITES.toLocaleString('en')} payments inserted then settled, one connection, each statement its own commit, 3 rounds each, alternating:`);
      console.log(`  without the triggers (ceiling) ${list(cost.without)} µs per payment; with them ${list(cost.withTriggers)} µs`);
      console.log(`  ratio per payment, without / with the triggers (medians): ${(median(cost.without) / median(cost.withTriggers)).toFixed(3)}`);
    } finally {
      await pathClient.end();
    }
    const ratio = rows.map((row) => percentile(row.api, 99) / percentile(row.ceiling, 99));
    console.log(`ratio API p99 / ceiling p99: ${ratio.map((r) => r.toFixed(2)).join(' / ')}`);
  } finally {
    await db?.$disconnect();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
