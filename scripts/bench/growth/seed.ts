import { Client } from 'pg';
import { createDatabase } from '../../../prisma/client';
import { createAccount, createChannel, createOperatorApiKey } from '../../operator/accounts';

/**
 * The grown database of `npm run bench:growth` (docs/performance-at-scale.md, "The seeded year"):
 * a year of a busy merchant written by SQL in the database (INSERT … SELECT generate_series, one
 * statement per table), at BENCH_GROWTH_SCALE times the full size. Rows are spread over 20
 * accounts, the first holding half (row g: account 0 when g is even, else 1 + (g / 2) % 19), and
 * are created evenly over the 365 days before the seed, their ids made as `newId` makes them
 * (prefix, the creation millisecond, then a counter), so id order is creation order as in life.
 */

/** Rows at scale 1. */
export const FULL_SIZE = {
  customers: 1_000_000,
  invoices: 10_000_000,
  subscriptions: 1_000_000,
  outboxEvents: 50_000_000,
  webhookDeliveries: 20_000_000,
  idempotencyRecords: 10_000_000,
  auditEntries: 1_000_000,
};

export const ACCOUNTS = 20;
/** Customers (and subscriptions) are numbered so that number mod 38 fixes the account: rows pick one with their own residue. */
const RESIDUES = 38;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Outbox events still to dispatch at the seed's end, at scale 1: the last minutes' tail. */
const UNDISPATCHED_TAIL = 2_000;

export interface SeededAccount {
  id: string;
  channelId: string;
  apiKeyId: string;
}

export interface GrowthSeed {
  scale: number;
  /** The first holds half of every table's rows: the account the bench acts as. */
  accounts: SeededAccount[];
  seededAt: string;
}

export type Sizes = typeof FULL_SIZE;

export function sizesAt(scale: number): Sizes {
  const sized = (n: number, multiple = 1) => Math.max(multiple, Math.round((n * scale) / multiple) * multiple);
  return {
    customers: sized(FULL_SIZE.customers, RESIDUES),
    invoices: sized(FULL_SIZE.invoices),
    subscriptions: sized(FULL_SIZE.subscriptions, RESIDUES),
    outboxEvents: sized(FULL_SIZE.outboxEvents),
    webhookDeliveries: sized(FULL_SIZE.webhookDeliveries),
    idempotencyRecords: sized(FULL_SIZE.idempotencyRecords),
    auditEntries: sized(FULL_SIZE.auditEntries),
  };
}

const MARKER = 'bench_growth.seed';

/** The seed recorded in the database, when one at `scale` finished there. */
export async function readSeed(client: Client, scale: number): Promise<GrowthSeed | undefined> {
  const exists = await client.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MARKER]);
  if (!exists.rows[0].exists) return undefined;
  const { rows } = await client.query(`SELECT seed FROM ${MARKER} WHERE scale = $1`, [scale]);
  return rows[0]?.seed as GrowthSeed | undefined;
}

// Crockford base32, lower case, as domain/ids.ts writes ids.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const chars = (value: string, count: number) =>
  Array.from({ length: count }, (_, i) => `substr('${ALPHABET}', ((${value} >> ${5 * (count - 1 - i)}) & 31)::int + 1, 1)`).join(' || ');

/**
 * pg_temp.gid(prefix, ms, n): an id as newId makes it at millisecond `ms`, with the row number in
 * place of the random part, so ids are unique and sort by time. An SQL function of one expression,
 * inlined by the planner. pg_temp: the seed leaves nothing in the schema.
 */
const ID_FUNCTION = `CREATE OR REPLACE FUNCTION pg_temp.gid(prefix text, ms bigint, n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT prefix || ${chars('ms', 10)} || '0000000000' || ${chars('n', 6)} $$`;

interface Step {
  table: string;
  sql: string;
  params: unknown[];
}

/** Index of row g's account in the accounts array (1-based, SQL): half to the first, the rest round-robin. */
const account = (g: string) => `(CASE WHEN ${g} % 2 = 0 THEN 1 ELSE 2 + (${g} / 2) % 19 END)`;
/** A number below `count` (a multiple of 38) in row g's account, spread by a multiplicative hash. */
const sameAccount = (g: string, count: string) => `((${g} * 7919) % (${count}::bigint / ${RESIDUES}) * ${RESIDUES} + ${g} % ${RESIDUES})`;
/** Millisecond of row g of n, evenly over the year before $start. */
const at = (g: string, n: string) => `($start::bigint + ${g}::bigint * ${YEAR_MS} / ${n}::bigint)`;

/**
 * The SQL of each table. No statement reads another table (ids are computed, foreign keys are off
 * during the load), so any two run at once.
 */
function steps(sizes: Sizes, start: number, accounts: SeededAccount[]): Step[] {
  const ids = accounts.map((a) => a.id);
  const channels = accounts.map((a) => a.channelId);
  const keys = accounts.map((a) => a.apiKeyId);
  const bind = (sql: string) => sql.replaceAll('$start', String(start));
  const customer = (g: string) => `pg_temp.gid('cust_', ${at(sameAccount(g, '$3'), '$3')}, ${sameAccount(g, '$3')})`;
  const invoices: Step = {
    table: 'invoices',
    // Status by g % 100: 84 PAID, 6 OPEN, 3 VOIDED, 2 DRAFT, 2 DUNNING, 1 UNPAID, 2 PAID; 80 % EUR, 15 % USD, 5 % GBP;
    // 30 % from a subscription of the same account; 1 to 3 lines of the same amount.
    sql: bind(`
      INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due, amount_paid, amount_details, discounts,
                            customer_snapshot, subscription_id, billing_reason, collection_method, finalized_at, paid_at, voided_at, created_at, updated_at)
      SELECT pg_temp.gid('inv_', ms, g), ($1::text[])[a], ($2::text[])[a], c, s, cur, total,
             CASE WHEN s IN ('PAID', 'VOIDED') THEN 0 ELSE total END, CASE WHEN s = 'PAID' THEN total ELSE 0 END,
             jsonb_build_object('subtotal', total, 'discount', 0, 'taxable', total, 'tax', 0), '[]'::jsonb,
             CASE WHEN s <> 'DRAFT' THEN jsonb_build_object('id', c, 'email', 'customer' || (g % 100000) || '@example.com', 'tax', '{"taxability":"TAXABLE"}'::jsonb) END,
             CASE WHEN g % 10 < 3 THEN pg_temp.gid('subs_', ${at(sameAccount('g', '$5'), '$5')}, ${sameAccount('g', '$5')}) END,
             CASE WHEN g % 10 < 3 THEN 'SUBSCRIPTION_CYCLE' ELSE 'MANUAL' END, 'CHARGE_AUTOMATICALLY',
             CASE WHEN s <> 'DRAFT' THEN t + interval '1 minute' END, CASE WHEN s = 'PAID' THEN t + interval '2 minutes' END,
             CASE WHEN s = 'VOIDED' THEN t + interval '1 day' END, t, t + interval '2 minutes'
      FROM generate_series(0, $4::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$4')} AS ms, ${account('g')} AS a, ${customer('g')} AS c,
                           (1 + (g / 7) % 3) * (500 + (g * 37) % 20000) AS total,
                           CASE WHEN g % 20 < 16 THEN 'EUR' WHEN g % 20 < 19 THEN 'USD' ELSE 'GBP' END AS cur,
                           CASE WHEN g % 100 < 84 THEN 'PAID' WHEN g % 100 < 90 THEN 'OPEN' WHEN g % 100 < 93 THEN 'VOIDED' WHEN g % 100 < 95 THEN 'DRAFT'
                                WHEN g % 100 < 97 THEN 'DUNNING' WHEN g % 100 < 98 THEN 'UNPAID' ELSE 'PAID' END AS s) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt`),
    params: [ids, channels, sizes.customers, sizes.invoices, sizes.subscriptions],
  };
  const lines: Step = {
    table: 'invoice_line_items',
    sql: bind(`
      INSERT INTO invoice_line_items (id, invoice_id, position, description, amount, currency, quantity, subtotal, discount, taxable, tax, created_at)
      SELECT pg_temp.gid('ili_', ms, g * 4 + p), pg_temp.gid('inv_', ms, g), p, 'Plan ' || p, amount, cur, 1, amount, 0, amount, 0, to_timestamp(ms / 1000.0)
      FROM generate_series(0, $1::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$1')} AS ms, 500 + (g * 37) % 20000 AS amount,
                           CASE WHEN g % 20 < 16 THEN 'EUR' WHEN g % 20 < 19 THEN 'USD' ELSE 'GBP' END AS cur) AS r,
           generate_series(1, 1 + (g / 7) % 3) AS p`),
    params: [sizes.invoices],
  };
  const payments: Step = {
    table: 'payments',
    // One payment per PAID invoice, a DECLINED one per DUNNING or UNPAID invoice.
    sql: bind(`
      INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, invoice_id, idempotency_key, amount, currency, status, decline_code,
                            provider, provider_charge_id, attempts, created_at, updated_at)
      SELECT pg_temp.gid('pay_', ms + 120000, g), ($1::text[])[a], ($2::text[])[a], c, 'pi_' || substr(c, 6), pg_temp.gid('inv_', ms, g),
             'collect/' || pg_temp.gid('inv_', ms, g), (1 + (g / 7) % 3) * (500 + (g * 37) % 20000),
             CASE WHEN g % 20 < 16 THEN 'EUR' WHEN g % 20 < 19 THEN 'USD' ELSE 'GBP' END,
             CASE WHEN declined THEN 'DECLINED' ELSE 'SUCCEEDED' END, CASE WHEN declined THEN 'insufficient_funds' END,
             'sandbox-alpha', pg_temp.gid('sbch_', ms + 120000, g), '[]'::jsonb, t, t
      FROM generate_series(0, $4::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$4')} AS ms, ${account('g')} AS a, ${customer('g')} AS c, g % 100 BETWEEN 95 AND 97 AS declined) AS r,
           LATERAL (SELECT to_timestamp((ms + 120000) / 1000.0) AS t) AS tt
      WHERE g % 100 < 84 OR g % 100 >= 95`),
    params: [ids, channels, sizes.customers, sizes.invoices],
  };
  const customers: Step = {
    table: 'customers',
    sql: bind(`
      INSERT INTO customers (id, account_id, channel_id, type, email, first_name, last_name, merchant_customer_id, tax, status, created_at, updated_at)
      SELECT pg_temp.gid('cust_', ms, g), ($1::text[])[a], ($2::text[])[a], CASE WHEN g % 10 = 0 THEN 'BUSINESS' ELSE 'INDIVIDUAL' END,
             'customer' || g || '@example.com', (ARRAY['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Greta', 'Hugo'])[1 + g % 8],
             (ARRAY['Müller', 'Schmidt', 'Dubois', 'Rossi', 'Smith', 'García', 'Novak', 'Jansen'])[1 + (g / 8) % 8] || ' ' || (g % 997),
             'm-' || g, '{"taxability":"TAXABLE"}'::jsonb, CASE WHEN g % 50 = 0 THEN 'INACTIVE' ELSE 'ACTIVE' END, t, t
      FROM generate_series(0, $3::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$3')} AS ms, ${account('(g % ' + RESIDUES + ')')} AS a) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt`),
    params: [ids, channels, sizes.customers],
  };
  const subscriptions: Step = {
    table: 'subscriptions',
    // 70 % ACTIVE, 15 % CANCELLED, 5 % each TRIALING, UNPAID, REDEMPTION.
    sql: bind(`
      INSERT INTO subscriptions (id, account_id, channel_id, customer_id, status, currency, started_at, next_billing_at, anchor_at, cycle_count,
                                 monthly_amount, first_active_at, created_at, updated_at)
      SELECT pg_temp.gid('subs_', ms, g), ($1::text[])[a], ($2::text[])[a], ${customer('g')}, s,
             CASE WHEN g % 20 < 16 THEN 'EUR' WHEN g % 20 < 19 THEN 'USD' ELSE 'GBP' END, t,
             CASE WHEN s <> 'CANCELLED' THEN t + (cycles + 1) * interval '30 days' END, t, cycles + 1, 1000 + (g % 50) * 100, CASE WHEN s <> 'TRIALING' THEN t + interval '1 minute' END, t, t
      FROM generate_series(0, $4::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$4')} AS ms, ${account('(g % ' + RESIDUES + ')')} AS a,
                           CASE WHEN g % 20 < 14 THEN 'ACTIVE' WHEN g % 20 < 17 THEN 'CANCELLED' WHEN g % 20 = 17 THEN 'TRIALING'
                                WHEN g % 20 = 18 THEN 'UNPAID' ELSE 'REDEMPTION' END AS s) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt,
           LATERAL (SELECT floor(extract(epoch FROM now() - t) / (30 * 86400))::int AS cycles) AS cc`),
    params: [ids, channels, sizes.customers, sizes.subscriptions],
  };
  const audit: Step = {
    table: 'dashboard_audit_log',
    sql: bind(`
      INSERT INTO dashboard_audit_log (id, account_id, actor_type, user_id, user_email, action, object_id, ip, user_agent, created_at)
      SELECT pg_temp.gid('aud_', ms, g), ($1::text[])[a], 'USER', 'usr_0000000000000000000000000' || a, 'admin' || a || '@example.com',
             (ARRAY['invoices/void', 'invoices/pay', 'customers/update', 'api-keys/create', 'webhook-endpoints/update'])[1 + g % 5],
             pg_temp.gid('inv_', ms, g), '203.0.113.' || (g % 250), 'Mozilla/5.0', to_timestamp(ms / 1000.0)
      FROM generate_series(0, $2::bigint - 1) AS g, LATERAL (SELECT ${at('g', '$2')} AS ms, ${account('g')} AS a) AS r`),
    params: [ids, sizes.auditEntries],
  };
  // Two endpoints per account; the events of every 5 with numbers 0 and 2 mod 5 are delivered (to one endpoint each).
  const endpoints: Step = {
    table: 'webhook_endpoints',
    sql: bind(`
      INSERT INTO webhook_endpoints (id, account_id, url, status, event_types, created_at, updated_at)
      SELECT pg_temp.gid('whep_', $start::bigint, e), ($1::text[])[1 + e / 2], 'https://hooks.example.com/' || e, 'ACTIVE',
             ARRAY['INVOICE_PAID', 'INVOICE_FINALIZED', 'SUBSCRIPTION_UPDATED'], to_timestamp($start / 1000.0), to_timestamp($start / 1000.0)
      FROM generate_series(0, ${2 * ACCOUNTS - 1}) AS e`),
    params: [ids],
  };
  const tail = Math.max(1, Math.round(UNDISPATCHED_TAIL * (sizes.outboxEvents / FULL_SIZE.outboxEvents)));
  // A dispatched event's data is read by nothing on the hot paths: it is left empty there to keep the 50 million rows lean.
  // The undispatched tail is of a type no seeded endpoint takes, so a worker started on the grown database sends nothing for it.
  const events: Step = {
    table: 'outbox_events',
    sql: bind(`
      INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data, dispatched_at, created_at)
      SELECT pg_temp.gid('evt_', ms, g), ($1::text[])[a], ($2::text[])[a],
             CASE WHEN dispatched THEN (ARRAY['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID', 'INVOICE_PAID', 'INVOICE_UPDATED', 'SUBSCRIPTION_UPDATED', 'CUSTOMER_UPDATED', 'INVOICE_VOIDED'])[1 + g % 8]
                  ELSE 'CUSTOMER_UPDATED' END,
             t, CASE WHEN dispatched THEN '{}'::jsonb ELSE jsonb_build_object('id', pg_temp.gid('inv_', ms, g)) END,
             CASE WHEN dispatched THEN t + interval '40 milliseconds' END, t
      FROM generate_series(0, $3::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$3')} AS ms, ${account('g')} AS a, g < $3::bigint - $4 AS dispatched) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt`),
    params: [ids, channels, sizes.outboxEvents, tail],
  };
  // Delivery d carries event e = d * 5 / 2 (distinct for distinct d); 97 % SUCCEEDED at the first attempt, 2 % after a retry or two,
  // 1 % FAILED after 8; the recent ones of the dispatched events only.
  const event = `(d * 5 / 2)`;
  const deliveries: Step = {
    table: 'webhook_deliveries',
    sql: bind(`
      INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, status, attempt_count, delivered_at, created_at, updated_at, handler)
      SELECT pg_temp.gid('whdl_', ms, d), ($1::text[])[a], pg_temp.gid('whep_', $start::bigint, (a - 1) * 2 + d % 2), pg_temp.gid('evt_', ms, ${event}),
             (ARRAY['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID', 'INVOICE_PAID', 'INVOICE_UPDATED', 'SUBSCRIPTION_UPDATED', 'CUSTOMER_UPDATED', 'INVOICE_VOIDED'])[1 + ${event} % 8],
             CASE WHEN n = 8 THEN 'FAILED' ELSE 'SUCCEEDED' END, n, CASE WHEN n < 8 THEN t + n * interval '1 second' END, t, t + n * interval '1 second',
             CASE WHEN n = 1 THEN 'SENDER' ELSE 'RETRY' END
      FROM generate_series(0, $2::bigint - 1) AS d,
           LATERAL (SELECT ${at(event, '$3')} AS ms, ${account(event)} AS a,
                           CASE WHEN d % 100 < 97 THEN 1 WHEN d % 100 < 99 THEN 2 + d % 2 ELSE 8 END AS n) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt
      WHERE ${event} < $3::bigint - $4`),
    params: [ids, sizes.webhookDeliveries, sizes.outboxEvents, tail],
  };
  const attempts: Step = {
    table: 'webhook_delivery_attempts',
    sql: bind(`
      INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, requested_at, response_status, error, duration_ms)
      SELECT pg_temp.gid('what_', ms, d * 8 + k), pg_temp.gid('whdl_', ms, d), k, to_timestamp(ms / 1000.0) + (k - 1) * interval '1 second',
             CASE WHEN k = n AND n < 8 THEN 200 ELSE 503 END, CASE WHEN k = n AND n < 8 THEN NULL ELSE 'HTTP_503' END, 20 + d % 180
      FROM generate_series(0, $1::bigint - 1) AS d,
           LATERAL (SELECT ${at(event, '$2')} AS ms, CASE WHEN d % 100 < 97 THEN 1 WHEN d % 100 < 99 THEN 2 + d % 2 ELSE 8 END AS n) AS r,
           generate_series(1, n) AS k
      WHERE ${event} < $2::bigint - $3`),
    params: [sizes.webhookDeliveries, sizes.outboxEvents, tail],
  };
  // Spread over the year like the rest: a record's 24 h have long passed for all but the last day's.
  const idempotency: Step = {
    table: 'idempotency_records',
    sql: bind(`
      INSERT INTO idempotency_records (api_key_id, key, operation, request_hash, response_status, response_body, created_at, expires_at)
      SELECT ($1::text[])[a], 'order-' || g, op, md5(g::text) || md5((g + 1)::text), 200,
             jsonb_build_object('id', pg_temp.gid('inv_', ms, g), 'status', 'OPEN'), t, t + interval '24 hours'
      FROM generate_series(0, $2::bigint - 1) AS g,
           LATERAL (SELECT ${at('g', '$2')} AS ms, ${account('g')} AS a,
                           (ARRAY['invoices/create', 'invoices/finalize', 'invoices/pay', 'customers/create'])[1 + g % 4] AS op) AS r,
           LATERAL (SELECT to_timestamp(ms / 1000.0) AS t) AS tt`),
    params: [keys, sizes.idempotencyRecords],
  };
  // Longest first, so the two sessions end together.
  return [deliveries, events, attempts, payments, invoices, lines, idempotency, customers, subscriptions, audit, endpoints];
}

const TABLES = [
  'customers', 'invoices', 'invoice_line_items', 'payments', 'subscriptions', 'dashboard_audit_log',
  'webhook_endpoints', 'outbox_events', 'webhook_deliveries', 'webhook_delivery_attempts', 'idempotency_records',
];

/** The seeded tables, largest first at every scale. */
const BY_SIZE = [
  'outbox_events', 'webhook_deliveries', 'invoices', 'payments', 'invoice_line_items', 'webhook_delivery_attempts', 'idempotency_records',
  'subscriptions', 'customers', 'dashboard_audit_log', 'webhook_endpoints',
];

interface Definitions {
  indexes: { name: string; table: string; def: string }[];
  foreignKeys: { name: string; table: string; def: string }[];
}

/** Secondary indexes and foreign keys of the seeded tables, as the migrations made them. */
export async function definitions(client: Client): Promise<Definitions> {
  const indexes = await client.query(
    `SELECT c.relname AS name, t.relname AS "table", pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relname = ANY($1) AND t.relnamespace = 'public'::regnamespace AND NOT i.indisprimary ORDER BY 1`,
    [TABLES],
  );
  const foreignKeys = await client.query(
    `SELECT conname AS name, conrelid::regclass::text AS "table", pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) ORDER BY 1`,
    [TABLES],
  );
  return { indexes: indexes.rows, foreignKeys: foreignKeys.rows };
}

/** Runs `tasks` on `sessions` connections, each taking the next task when it is free. */
async function onSessions<T>(sessions: Client[], tasks: T[], run: (client: Client, task: T) => Promise<void>): Promise<void> {
  const queue = [...tasks];
  await Promise.all(
    sessions.map(async (client) => {
      for (let task = queue.shift(); task !== undefined; task = queue.shift()) await run(client, task);
    }),
  );
}

const stamped = (line: string) => console.log(`[growth seed ${new Date().toISOString().slice(11, 19)}] ${line}`);

/**
 * Seeds `databaseUrl` (migrated, empty) with `sizes` rows and records the seed as made at `scale`. Secondary indexes and
 * foreign keys of the loaded tables are dropped first and made again after the load (each index
 * built once instead of kept up to date row by row), two sessions at a time, the machine's cores;
 * the end state is checked against the definitions read before.
 */
export async function seedGrowth(databaseUrl: string, sizes: Sizes, scale: number, log: (line: string) => void = stamped): Promise<GrowthSeed> {
  const db = createDatabase(databaseUrl, 2);
  const accounts: SeededAccount[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const row = await createAccount(db, i === 0 ? 'growth-half' : `growth-${i}`);
    const channel = await createChannel(db, row.id, 'web');
    const key = await createOperatorApiKey(db, { accountId: row.id, name: 'growth' });
    accounts.push({ id: row.id, channelId: channel.id, apiKeyId: key.row.id });
  }
  await db.$disconnect();

  const sessions = [new Client({ connectionString: databaseUrl }), new Client({ connectionString: databaseUrl })];
  await Promise.all(sessions.map((client) => client.connect()));
  try {
    for (const client of sessions) {
      await client.query(ID_FUNCTION);
      await client.query(`SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 0; SET synchronous_commit = off`);
    }
    const [main] = sessions as [Client, Client];
    const before = await definitions(main);
    for (const fk of before.foreignKeys) await main.query(`ALTER TABLE "${fk.table}" DROP CONSTRAINT "${fk.name}"`);
    for (const index of before.indexes) await main.query(`DROP INDEX "${index.name}"`);

    const start = Date.now() - YEAR_MS - 3600_000;
    const started = performance.now();
    await onSessions(sessions, steps(sizes, start, accounts), async (client, step) => {
      const t0 = performance.now();
      const result = await client.query(step.sql, step.params);
      log(`${step.table}: ${result.rowCount?.toLocaleString('en')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    });
    const largestFirst = [...before.indexes].sort((a, b) => BY_SIZE.indexOf(a.table) - BY_SIZE.indexOf(b.table));
    await onSessions(sessions, largestFirst, async (client, index) => {
      const t0 = performance.now();
      await client.query(index.def);
      log(`index ${index.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    });
    for (const fk of before.foreignKeys) {
      const t0 = performance.now();
      await main.query(`ALTER TABLE "${fk.table}" ADD CONSTRAINT "${fk.name}" ${fk.def}`);
      log(`foreign key ${fk.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    // Hint bits and the visibility map set once now (index-only scans), statistics for the planner.
    await onSessions(sessions, TABLES, async (client, table) => {
      const t0 = performance.now();
      await client.query(`VACUUM (ANALYZE) "${table}"`);
      log(`vacuum analyze ${table} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    });
    const after = await definitions(main);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      throw new Error(`the seeded schema differs from the migrated one:\n${JSON.stringify(before)}\n${JSON.stringify(after)}`);
    }
    log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s; indexes and foreign keys as migrated (${before.indexes.length} and ${before.foreignKeys.length})`);

    const seed: GrowthSeed = { scale, accounts, seededAt: new Date().toISOString() };
    await main.query(`CREATE SCHEMA IF NOT EXISTS bench_growth`);
    await main.query(`CREATE TABLE IF NOT EXISTS ${MARKER} (scale numeric PRIMARY KEY, seed jsonb NOT NULL)`);
    await main.query(`INSERT INTO ${MARKER} (scale, seed) VALUES ($1, $2)`, [scale, seed]);
    return seed;
  } finally {
    await Promise.all(sessions.map((client) => client.end()));
  }
}
