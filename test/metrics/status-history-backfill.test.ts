import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mrrAt } from '../../services/metrics/mrr';
import { readOverview } from '../../services/metrics/overview';
import { createTestDatabase, sqlOn, type TestDatabase } from '../support/database';

/**
 * Subscriptions written before the status history existed (docs/metrics.md, "Known limits"): the
 * migration that gives each change its account gives them the first change they lack and when
 * they first became ACTIVE, so the overview no longer takes a recovery for a new subscription,
 * misses a churn, or counts MRR from before a subscription existed.
 */
const MIGRATION = join(__dirname, '../../prisma/migrations/20261129142542_metrics_status_history_account/migration.sql');
const ACCOUNT = 'acct_legacyhistory';
const OTHER = 'acct_otherhistory';
const NOW = Date.parse('2026-11-29T12:00:00Z');
const NOVEMBER = { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') };

let database: TestDatabase;

const sql = (text: string, values: unknown[] = []) => sqlOn(database.url, text, values);

async function subscription(id: string, account: string, status: string, monthlyAmount: number, version: number, createdAt: string, startedAt: string | null) {
  await sql(
    `INSERT INTO subscriptions (id, account_id, channel_id, customer_id, status, currency, monthly_amount, version, started_at, created_at, updated_at)
     VALUES ($1, $2, 'chan_x', 'cust_x', $3, 'EUR', $4, $5, $6, $7, $7)`,
    [id, account, status, monthlyAmount, version, startedAt, createdAt],
  );
}

async function change(subscriptionId: string, version: number, from: string | null, to: string, at: string) {
  await sql(`INSERT INTO subscription_status_changes (id, subscription_id, from_status, to_status, version, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    `ssch_${subscriptionId}_${version}`,
    subscriptionId,
    from,
    to,
    version,
    at,
  ]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  // The tables as they were before the migration.
  await sql(`DROP INDEX subscription_status_changes_account_id_occurred_at_to_statu_idx;
             DROP INDEX subscriptions_account_id_currency_first_active_at_idx;
             ALTER TABLE subscriptions DROP COLUMN first_active_at;
             ALTER TABLE subscription_status_changes DROP COLUMN account_id;
             CREATE INDEX subscription_status_changes_occurred_at_idx ON subscription_status_changes (occurred_at)`);
  for (const id of [ACCOUNT, OTHER]) await database.db.account.create({ data: { id, name: id } });
  // ACTIVE since January, never a change recorded.
  await subscription('subs_legacy_a', ACCOUNT, 'ACTIVE', 1_000, 7, '2026-01-05T00:00:00Z', '2026-01-05T00:00:00Z');
  // UNPAID before the history began, paid again in November: a recovery, not a new subscription.
  await subscription('subs_legacy_b', ACCOUNT, 'ACTIVE', 200, 12, '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z');
  await change('subs_legacy_b', 12, 'UNPAID', 'ACTIVE', '2026-11-10T00:00:00Z');
  // In dunning before the history began, cancelled in November: churn.
  await subscription('subs_legacy_c', ACCOUNT, 'CANCELLED', 300, 9, '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z');
  await change('subs_legacy_c', 9, 'REDEMPTION', 'CANCELLED', '2026-11-12T00:00:00Z');
  // Cancelled before it ever started.
  await subscription('subs_legacy_d', ACCOUNT, 'CANCELLED', 400, 3, '2026-10-20T00:00:00Z', null);
  // Its whole history recorded: new in November.
  await subscription('subs_fresh_e', ACCOUNT, 'ACTIVE', 50, 2, '2026-11-03T00:00:00Z', '2026-11-03T00:01:00Z');
  await change('subs_fresh_e', 1, null, 'PENDING', '2026-11-03T00:00:00Z');
  await change('subs_fresh_e', 2, 'PENDING', 'ACTIVE', '2026-11-03T00:01:00Z');
  // Another account's churn in the same days.
  await subscription('subs_other', OTHER, 'CANCELLED', 900, 3, '2026-10-01T00:00:00Z', '2026-10-01T00:00:00Z');
  await change('subs_other', 1, null, 'PENDING', '2026-10-01T00:00:00Z');
  await change('subs_other', 2, 'PENDING', 'ACTIVE', '2026-10-01T00:00:00Z');
  await change('subs_other', 3, 'ACTIVE', 'CANCELLED', '2026-11-12T00:00:00Z');
  await sql(readFileSync(MIGRATION, 'utf8'));
});

afterAll(() => database?.drop());

it('gives every change its account and each subscription without its first change that change, at its creation', async () => {
  const rows = await sql(`SELECT subscription_id, account_id, from_status, to_status, version, occurred_at FROM subscription_status_changes ORDER BY subscription_id, version`);
  expect(rows.map((row) => [row.subscription_id, row.account_id, row.from_status, row.to_status, row.version, row.occurred_at.toISOString()])).toEqual([
    ['subs_fresh_e', ACCOUNT, null, 'PENDING', 1, '2026-11-03T00:00:00.000Z'],
    ['subs_fresh_e', ACCOUNT, 'PENDING', 'ACTIVE', 2, '2026-11-03T00:01:00.000Z'],
    ['subs_legacy_a', ACCOUNT, null, 'ACTIVE', 7, '2026-01-05T00:00:00.000Z'],
    ['subs_legacy_b', ACCOUNT, null, 'UNPAID', 11, '2026-02-01T00:00:00.000Z'],
    ['subs_legacy_b', ACCOUNT, 'UNPAID', 'ACTIVE', 12, '2026-11-10T00:00:00.000Z'],
    ['subs_legacy_c', ACCOUNT, null, 'REDEMPTION', 8, '2026-03-01T00:00:00.000Z'],
    ['subs_legacy_c', ACCOUNT, 'REDEMPTION', 'CANCELLED', 9, '2026-11-12T00:00:00.000Z'],
    ['subs_legacy_d', ACCOUNT, null, 'CANCELLED', 3, '2026-10-20T00:00:00.000Z'],
    ['subs_other', OTHER, null, 'PENDING', 1, '2026-10-01T00:00:00.000Z'],
    ['subs_other', OTHER, 'PENDING', 'ACTIVE', 2, '2026-10-01T00:00:00.000Z'],
    ['subs_other', OTHER, 'ACTIVE', 'CANCELLED', 3, '2026-11-12T00:00:00.000Z'],
  ]);
  const added = await sql(`SELECT id FROM subscription_status_changes WHERE id NOT LIKE 'ssch\\_subs\\_%'`);
  for (const { id } of added) expect(id).toMatch(/^ssch_[0-9a-hjkmnp-tv-z]{26}$/);
  const first = await sql(`SELECT id, first_active_at FROM subscriptions ORDER BY id`);
  expect(first.map((row) => [row.id, row.first_active_at?.toISOString() ?? null])).toEqual([
    ['subs_fresh_e', '2026-11-03T00:01:00.000Z'],
    ['subs_legacy_a', '2026-01-05T00:00:00.000Z'],
    ['subs_legacy_b', '2026-02-01T00:00:00.000Z'],
    ['subs_legacy_c', '2026-03-01T00:00:00.000Z'],
    ['subs_legacy_d', null],
    ['subs_other', '2026-10-01T00:00:00.000Z'],
  ]);
});

it('counts the recovery as reactivated, the cancellation after dunning as churn, and only the account’s own', async () => {
  const overview = await readOverview(database.db, ACCOUNT, { currency: 'EUR', period: NOVEMBER }, NOW);
  expect(overview.subscriptions).toEqual({
    new: { current: 1, previous: 0 },
    churned: { current: 1, previous: 0 },
    reactivated: { current: 1, previous: 0 },
  });
});

it('counts MRR from a subscription’s creation, not before', async () => {
  const instants = ['2026-01-01T00:00:00Z', '2026-01-06T00:00:00Z', '2026-06-01T00:00:00Z', '2026-11-11T00:00:00Z'].map(Date.parse);
  // legacy_b counts from its recovery, legacy_c while in dunning until cancelled, fresh_e from November.
  expect(await mrrAt(database.db, ACCOUNT, 'EUR', instants, NOW)).toEqual([0, 1_000, 1_300, 1_550]);
});
