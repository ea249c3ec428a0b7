import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDailyRevenue } from '../../services/metrics/daily-revenue';
import { foldMetricsDayChanges } from '../../services/metrics/fold-day-changes';
import { figuresCurrency } from '../../services/metrics/main-currency';
import { readOverview } from '../../services/metrics/overview';
import { createTestDatabase, sqlOn, type TestDatabase } from '../support/database';

/**
 * The overview's payments and refunds come from the daily roll-up (docs/metrics.md, "Daily
 * roll-up"): whole days from the folded days plus the changes not folded yet, partial days from
 * the rows. Whatever the order of writes, status changes of old rows, folds and periods, every
 * figure must equal a plain sum over the rows written, which this file keeps on the side.
 */
const DAY = 86_400_000;
const START = Date.parse('2026-06-01T00:00:00Z');
const DAYS = 6;
const NOW = START + (DAYS + 30) * DAY;
const ACCOUNTS = ['acct_rollupone', 'acct_rolluptwo'];
const CURRENCIES = ['EUR', 'GBP', 'USD'];
const PAYMENT_STATUSES = ['PROCESSING', 'SUCCEEDED', 'DECLINED', 'FAILED', 'REQUIRES_ACTION'];
const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'];
const CODES = [null, 'insufficient_funds', 'do_not_honor', 'expired_card', 'card_declined', 'lost_card', 'stolen_card', 'processing_error'];

interface PaymentRow { id: string; account: string; currency: string; at: number; status: string; amount: number; code: string | null }
interface RefundRow { id: string; account: string; paymentId: string; at: number; status: string; amount: number }

let database: TestDatabase;

const sql = (text: string, values: unknown[] = []) => sqlOn(database.url, text, values);

/** mulberry32: a failing sequence replays from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function insertPayment(row: PaymentRow) {
  await sql(
    `INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, invoice_id, idempotency_key, amount, currency, status, decline_code, attempts, created_at, updated_at)
     VALUES ($1, $2, 'chan_x', 'cus_x', 'pi_x', 'in_rollup', $1, $3, $4, $5, $6, '[]'::jsonb, $7, $7)`,
    [row.id, row.account, row.amount, row.currency, row.status, row.code, new Date(row.at)],
  );
}

async function insertRefund(row: RefundRow) {
  await sql(
    `INSERT INTO refunds (id, account_id, invoice_id, payment_id, amount, status, provider, idempotency_key, created_at, updated_at)
     VALUES ($1, $2, 'in_rollup', $3, $4, $5, 'sandbox-alpha', $1, $6, $6)`,
    [row.id, row.account, row.paymentId, row.amount, row.status, new Date(row.at)],
  );
}

function inPeriod(at: number, period: { from: number; to: number }) {
  return at >= period.from && at < period.to;
}

/** The figures by hand, from the rows as written. */
function expected(payments: PaymentRow[], refunds: RefundRow[], account: string, currency: string, period: { from: number; to: number }) {
  const previous = { from: period.from - (period.to - period.from), to: period.from };
  const ours = payments.filter((p) => p.account === account && p.currency === currency);
  const currencyOf = new Map(payments.map((p) => [p.id, p.currency]));
  const ourRefunds = refunds.filter((r) => r.account === account && currencyOf.get(r.paymentId) === currency && r.status === 'SUCCEEDED');
  const of = (range: { from: number; to: number }) => {
    const within = ours.filter((p) => inPeriod(p.at, range));
    const failed = within.filter((p) => p.status === 'DECLINED' || p.status === 'FAILED');
    const succeeded = within.filter((p) => p.status === 'SUCCEEDED');
    return {
      gross: succeeded.reduce((sum, p) => sum + p.amount, 0),
      failed: failed.length,
      succeeded: succeeded.length,
      refunds: ourRefunds.filter((r) => inPeriod(r.at, range)).reduce((sum, r) => sum + r.amount, 0),
      failedRows: failed,
    };
  };
  const current = of(period);
  const before = of(previous);
  const counts = new Map<string, number>();
  for (const p of current.failedRows) if (p.code) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5).map(([declineCode, count]) => ({ declineCode, count }));
  const days = [];
  for (let start = period.from - (period.from % DAY); start < period.to; start += DAY) {
    const day = { from: Math.max(start, period.from), to: Math.min(start + DAY, period.to) };
    days.push({
      date: new Date(start).toISOString().slice(0, 10),
      collected: ours.filter((p) => p.status === 'SUCCEEDED' && inPeriod(p.at, day)).reduce((sum, p) => sum + p.amount, 0),
      refunded: ourRefunds.filter((r) => inPeriod(r.at, day)).reduce((sum, r) => sum + r.amount, 0),
    });
  }
  return { current, before, top, days };
}

/** The currency of the largest sum of SUCCEEDED payments in the 90 days before NOW, ties alphabetical; EUR when none. */
function expectedMainCurrency(payments: PaymentRow[], account: string) {
  const sums = new Map<string, { amount: number; count: number }>();
  for (const p of payments) {
    if (p.account !== account || p.status !== 'SUCCEEDED' || p.at < NOW - 90 * DAY || p.at >= NOW) continue;
    const sum = sums.get(p.currency) ?? { amount: 0, count: 0 };
    sums.set(p.currency, { amount: sum.amount + p.amount, count: sum.count + 1 });
  }
  const [best] = [...sums].sort((a, b) => b[1].amount - a[1].amount || (a[0] < b[0] ? -1 : 1));
  return best ? { currency: best[0], source: 'MAIN_CURRENCY' } : { currency: 'EUR', source: 'DEFAULT' };
}

async function expectFigures(payments: PaymentRow[], refunds: RefundRow[], account: string, currency: string, period: { from: number; to: number }, label: string) {
  const want = expected(payments, refunds, account, currency, period);
  const overview = await readOverview(database.db, account, { currency, period }, NOW);
  const daily = await readDailyRevenue(database.db, account, { currency, period }, NOW);
  expect({
    label,
    gross: overview.grossVolume,
    refunds: overview.refunds,
    failed: [overview.failedPayments.current.failed, overview.failedPayments.previous.failed],
    succeeded: [overview.failedPayments.current.succeeded, overview.failedPayments.previous.succeeded],
    top: overview.topDeclineCodes,
    days: daily.days,
  }).toEqual({
    label,
    gross: { current: want.current.gross, previous: want.before.gross },
    refunds: { current: want.current.refunds, previous: want.before.refunds },
    failed: [want.current.failed, want.before.failed],
    succeeded: [want.current.succeeded, want.before.succeeded],
    top: want.top,
    days: want.days,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  for (const id of ACCOUNTS) await database.db.account.create({ data: { id, name: id } });
  await sql(
    `INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due, amount_paid, amount_details, discounts, billing_reason, collection_method, created_at, updated_at)
     VALUES ('in_rollup', $1, 'chan_x', 'cus_x', 'PAID', 'EUR', 0, 0, 0, '{}'::jsonb, '[]'::jsonb, 'MANUAL', 'CHARGE_AUTOMATICALLY', now(), now())`,
    [ACCOUNTS[0]],
  );
});

afterAll(async () => {
  await database.drop();
});

describe('daily roll-up of payments and refunds', () => {
  it('answers what a sum over the rows answers, through writes, status changes of old days, deletes and folds, for whole and partial days', async () => {
    const seed = Number(process.env.ROLLUP_SEED ?? 20261129);
    const next = random(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const payments: PaymentRow[] = [];
    const refunds: RefundRow[] = [];
    // Instants on the days' edges too, where a day ends and the next begins.
    const instant = () => START + Math.floor(next() * DAYS) * DAY + pick([0, 1, DAY - 1, Math.floor(next() * DAY)]);
    let folds = 0;
    for (let step = 0; step < 240; step++) {
      const roll = next();
      if (roll < 0.35 || payments.length === 0) {
        const status = pick(PAYMENT_STATUSES);
        const row = { id: `pay_r${step}`, account: pick(ACCOUNTS), currency: pick(CURRENCIES), at: instant(), status, amount: 1 + Math.floor(next() * 50_000), code: status === 'DECLINED' || status === 'FAILED' ? pick(CODES) : null };
        await insertPayment(row);
        payments.push(row);
      } else if (roll < 0.6) {
        const row = pick(payments);
        row.status = pick(PAYMENT_STATUSES);
        row.code = row.status === 'DECLINED' || row.status === 'FAILED' ? pick(CODES) : null;
        if (next() < 0.2) row.amount = 1 + Math.floor(next() * 50_000);
        await sql(`UPDATE payments SET status = $2, decline_code = $3, amount = $4, updated_at = now() WHERE id = $1`, [row.id, row.status, row.code, row.amount]);
      } else if (roll < 0.65) {
        // An update of columns the roll-up does not group by changes nothing in it.
        await sql(`UPDATE payments SET attempts = '[{"n":1}]'::jsonb, updated_at = now() WHERE id = $1`, [pick(payments).id]);
      } else if (roll < 0.78) {
        const payment = pick(payments);
        const row = { id: `re_r${step}`, account: payment.account, paymentId: payment.id, at: instant(), status: pick(REFUND_STATUSES), amount: 1 + Math.floor(next() * 5_000) };
        await insertRefund(row);
        refunds.push(row);
      } else if (roll < 0.86 && refunds.length > 0) {
        const row = pick(refunds);
        row.status = pick(REFUND_STATUSES);
        await sql(`UPDATE refunds SET status = $2, updated_at = now() WHERE id = $1`, [row.id, row.status]);
      } else if (roll < 0.88) {
        // A refund goes with its payment: a deleted payment's refunds count nowhere.
        const row = pick(payments);
        await sql(`DELETE FROM payments WHERE id = $1`, [row.id]);
        payments.splice(payments.indexOf(row), 1);
        await sql(`DELETE FROM refunds WHERE payment_id = $1 AND $2`, [row.id, next() < 0.5]);
        for (const refund of refunds.filter((r) => r.paymentId === row.id)) refunds.splice(refunds.indexOf(refund), 1);
      } else if (roll < 0.9) {
        // A payment moved to another currency takes its refunds with it.
        const row = pick(payments);
        row.currency = pick(CURRENCIES);
        await sql(`UPDATE payments SET currency = $2 WHERE id = $1`, [row.id, row.currency]);
      } else {
        await foldMetricsDayChanges(database.db, undefined, 1 + Math.floor(next() * 7));
        folds++;
      }
      if (step % 12 === 11) {
        const from = START + Math.floor(next() * DAYS) * DAY + pick([0, 0, Math.floor(next() * DAY)]);
        const to = Math.min(START + (DAYS + 1) * DAY, from + pick([DAY, 2 * DAY, 3 * DAY, 1 + Math.floor(next() * 3 * DAY)]));
        for (const account of ACCOUNTS) {
          for (const currency of CURRENCIES) await expectFigures(payments, refunds, account, currency, { from, to }, `seed ${seed}, step ${step}, ${account} ${currency} ${new Date(from).toISOString()}–${new Date(to).toISOString()}`);
          expect({ step, account, main: await figuresCurrency(database.db, account, undefined, NOW) }).toEqual({ step, account, main: expectedMainCurrency(payments, account) });
        }
      }
    }
    expect(folds).toBeGreaterThan(5);

    const { folded } = await foldMetricsDayChanges(database.db);
    expect(folded).toBeGreaterThan(0);
    expect(await sql('SELECT (SELECT count(*) FROM metrics_payment_day_changes)::int AS payments, (SELECT count(*) FROM metrics_refund_day_changes)::int AS refunds')).toEqual([{ payments: 0, refunds: 0 }]);
    const everything = { from: START - DAY, to: START + (DAYS + 1) * DAY };
    for (const account of ACCOUNTS) for (const currency of CURRENCIES) await expectFigures(payments, refunds, account, currency, everything, `all folded, ${account} ${currency}`);
  });

  it('moves a refund with its payment: to its new currency, and out with a deleted payment, folded or not', async () => {
    const account = 'acct_rollupmoves';
    await database.db.account.create({ data: { id: account, name: account } });
    const at = START + 2 * DAY + 3_600_000;
    const payments: PaymentRow[] = [{ id: 'pay_moves1', account, currency: 'EUR', at, status: 'SUCCEEDED', amount: 9_000, code: null }];
    const refunds: RefundRow[] = [{ id: 're_moves1', account, paymentId: 'pay_moves1', at: at + DAY, status: 'SUCCEEDED', amount: 4_000 }];
    await insertPayment(payments[0]!);
    await insertRefund(refunds[0]!);
    const week = { from: START, to: START + 7 * DAY };
    const check = async (label: string) => {
      for (const currency of CURRENCIES) await expectFigures(payments, refunds, account, currency, week, `${label}, ${currency}`);
    };
    for (const fold of [false, true]) {
      if (fold) await foldMetricsDayChanges(database.db);
      await check(`before, folded ${fold}`);
      payments[0]!.currency = payments[0]!.currency === 'EUR' ? 'GBP' : 'EUR';
      await sql(`UPDATE payments SET currency = $1 WHERE id = 'pay_moves1'`, [payments[0]!.currency]);
      await check(`currency changed, folded ${fold}`);
    }
    await foldMetricsDayChanges(database.db);
    await sql(`DELETE FROM payments WHERE id = 'pay_moves1'`);
    payments.pop();
    await check('payment deleted');
    expect((await readOverview(database.db, account, { currency: 'EUR', period: week }, NOW)).refunds.current).toBe(0);
  });

  it('reads periods of any year, the first one included, as the rows would', async () => {
    const account = ACCOUNTS[0]!;
    const first = { from: Date.parse('0001-01-01T00:00:00Z'), to: Date.parse('0001-01-02T12:00:00Z') };
    const overview = await readOverview(database.db, account, { currency: 'EUR', period: first }, NOW);
    expect(overview.grossVolume).toEqual({ current: 0, previous: 0 });
    expect((await readDailyRevenue(database.db, account, { currency: 'EUR', period: first }, NOW)).days.map((day) => day.date)).toEqual(['0001-01-01', '0001-01-02']);
  });

  it('counts the rows written before the migration: it adds them to the days under a lock, then the triggers take over', async () => {
    const migration = readFileSync(join(__dirname, '../../prisma/migrations/20261129185220_metrics_daily_rollup/migration.sql'), 'utf8');
    const account = 'acct_rollupold';
    await database.db.account.create({ data: { id: account, name: account } });
    // The database as it was before the migration.
    await sql(`DROP TABLE metrics_payment_days, metrics_payment_day_changes, metrics_refund_days, metrics_refund_day_changes;
               DROP FUNCTION metrics_payment_day_change, metrics_refund_day_change CASCADE`);
    const payments: PaymentRow[] = [
      { id: 'pay_old1', account, currency: 'EUR', at: START + 3_600_000, status: 'SUCCEEDED', amount: 12_000, code: null },
      { id: 'pay_old2', account, currency: 'EUR', at: START + DAY + 60_000, status: 'DECLINED', amount: 5_000, code: 'do_not_honor' },
      { id: 'pay_old3', account, currency: 'EUR', at: START + 2 * DAY, status: 'SUCCEEDED', amount: 7_000, code: null },
    ];
    for (const row of payments) await insertPayment(row);
    const refunds: RefundRow[] = [{ id: 're_old1', account, paymentId: 'pay_old1', at: START + 2 * DAY + 5, status: 'SUCCEEDED', amount: 2_500 }];
    await insertRefund(refunds[0]!);

    await sql(migration);
    // After it, a status change of an old row is a change like any other.
    payments[1]!.status = 'SUCCEEDED';
    payments[1]!.code = null;
    await sql(`UPDATE payments SET status = 'SUCCEEDED', decline_code = NULL WHERE id = 'pay_old2'`);
    for (const period of [{ from: START, to: START + 3 * DAY }, { from: START + 1, to: START + 3 * DAY - 1 }]) {
      await expectFigures(payments, refunds, account, 'EUR', period, `migrated ${period.from}`);
    }
    expect((await readOverview(database.db, account, { currency: 'EUR', period: { from: START, to: START + 3 * DAY } }, NOW)).grossVolume.current).toBe(24_000);
  });
});
