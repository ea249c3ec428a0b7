import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { reportStorageKey, writeReportFile, type ReportScope } from '../../activities/report-export';
import { LocalDiskStorage } from '../../services/files/local-disk-storage';
import { newId } from '../../domain/ids';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';

/**
 * `npm run bench:reports`: an INVOICES report over BENCH_LINE_ITEMS (default 1,000,000) invoice
 * line items, BENCH_LINES_PER_INVOICE (10) per finalized invoice, built by the export code
 * the activity runs (one streamed statement → papaparse → local-disk storage), without Temporal. Beside
 * it, in the same run on the same PostgreSQL, the database's own `COPY (…) TO STDOUT (FORMAT
 * csv)` of the same rows and columns, read over the pg protocol into a file. Prints rows per
 * second and the process's peak RSS for both.
 */
const LINE_ITEMS = Number(process.env.BENCH_LINE_ITEMS ?? 1_000_000);
const LINES_PER_INVOICE = Number(process.env.BENCH_LINES_PER_INVOICE ?? 10);
const INVOICES = Math.ceil(LINE_ITEMS / LINES_PER_INVOICE);
const FROM = new Date('2026-01-01T00:00:00Z');

/** Peak resident set size while `work` runs, sampled every 20 ms. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMiB: number; startRssMiB: number }> {
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - started) / 1000, peakRssMiB: peak / 2 ** 20, startRssMiB: startRss / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/** Invoices with a frozen customer snapshot and their line items, written by PostgreSQL itself. */
async function seed(client: Client, accountId: string, channelId: string, customerId: string): Promise<void> {
  await client.query(
    `INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due,
       amount_details, discounts, customer_snapshot, billing_reason, collection_method, due_at, notes, merchant_reference,
       finalized_at, created_at, updated_at)
     SELECT 'inv_bench' || lpad(g::text, 9, '0'), $1, $2, $3, 'OPEN', 'EUR', 11900, 11900,
       '{"subtotal": 11000, "discount": 1100, "taxable": 9900, "tax": 2000}'::jsonb,
       '[{"coupon_id": "0190c3a8-0000-7000-8000-000000000001", "coupon_code": "TEN", "calculation_type": "PERCENTAGE", "calculation_value": 10}]'::jsonb,
       jsonb_build_object('id', $3::text, 'first_name', 'Ada', 'last_name', 'Lovelace', 'email', 'ada' || g || '@example.com',
         'address', jsonb_build_object('line1', '12 St James Sq', 'city', 'London', 'postal_code', 'SW1Y 4JH', 'country', 'GBR'),
         'tax', jsonb_build_object('taxability', 'TAXABLE')),
       'MANUAL', 'SEND_INVOICE', $4::timestamptz + interval '60 days', 'Thanks, "friend"', 'PO-' || g,
       $4::timestamptz + g * interval '10 seconds', $4::timestamptz + g * interval '10 seconds', $4::timestamptz + g * interval '10 seconds'
     FROM generate_series(1, $5::int) g`,
    [accountId, channelId, customerId, FROM.toISOString(), INVOICES],
  );
  await client.query(
    `INSERT INTO invoice_line_items (id, invoice_id, position, product_price_id, description, amount, currency, quantity,
       tax_category_id, tax_mode, tax_rate, subtotal, discount, taxable, tax, created_at)
     SELECT 'ili_bench' || lpad(g::text, 9, '0') || '_' || p, 'inv_bench' || lpad(g::text, 9, '0'), p,
       CASE WHEN p % 2 = 0 THEN '0190c3a8-0000-7000-8000-0000000001' || lpad(p::text, 2, '0') END,
       'Line ' || p || ', widgets', 1100, 'EUR', 1, 'taxc_std', 'EXCLUSIVE', 19.5, 1100, 110, 990, 193,
       $1::timestamptz + g * interval '10 seconds'
     FROM generate_series(1, $2::int) g, generate_series(0, $3::int - 1) p
     WHERE (g - 1) * $3 + p < $4`,
    [FROM.toISOString(), INVOICES, LINES_PER_INVOICE, LINE_ITEMS],
  );
  await client.query('ANALYZE invoices; ANALYZE invoice_line_items; ANALYZE customers');
}

/** The report's rows and columns computed by PostgreSQL alone (pdf_url left empty: it is an HMAC the database cannot sign). */
const COPY_SELECT = `
  SELECT i.id, i.status, i.currency, i.total_amount, i.notes, i.merchant_reference, NULL AS pdf_url,
    to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    to_char(i.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    to_char(i.due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    i.customer_snapshot->>'id', i.customer_snapshot->>'first_name', i.customer_snapshot->>'last_name',
    i.customer_snapshot->>'email', i.customer_snapshot->>'phone',
    i.customer_snapshot->'address'->>'city', i.customer_snapshot->'address'->>'country',
    i.customer_snapshot->'address'->>'line1', i.customer_snapshot->'address'->>'line2',
    i.customer_snapshot->'address'->>'state', i.customer_snapshot->'address'->>'postal_code',
    i.customer_snapshot->'tax'->>'taxability',
    i.amount_details->>'subtotal', i.amount_details->>'discount', i.amount_details->>'taxable', i.amount_details->>'tax',
    (SELECT jsonb_agg(jsonb_build_object('coupon_id', d->'coupon_id', 'coupon_code', d->'coupon_code')) FROM jsonb_array_elements(i.discounts) d),
    l.product_price_id, l.description, l.amount, l.currency, l.quantity, l.subtotal, l.discount, l.taxable, l.tax,
    l.tax_category_id, l.tax_mode, l.tax_rate::float8
  FROM invoices i JOIN invoice_line_items l ON l.invoice_id = i.id
  WHERE i.account_id = '%ACCOUNT%' AND i.deleted_at IS NULL AND i.created_at >= '%FROM%' AND i.created_at < '%TO%'
  ORDER BY i.created_at, i.id, l.position`;

/**
 * `COPY … TO STDOUT` over the pg protocol: `pg` hands the CopyData messages to the active
 * query, which writes them to a file as they arrive (no pg-copy-streams, no psql needed).
 */
function copyToFile(client: Client, sql: string, path: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const fd = openSync(path, 'w');
    let bytes = 0;
    let lines = 0;
    let failure: Error | undefined;
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(`COPY (${sql}) TO STDOUT (FORMAT csv)`);
      },
      handleCopyData(message: { chunk: Buffer }) {
        writeSync(fd, message.chunk);
        bytes += message.chunk.length;
        for (let at = message.chunk.indexOf(10); at !== -1; at = message.chunk.indexOf(10, at + 1)) lines++;
      },
      handleCommandComplete() {},
      handleError(error: Error) {
        failure = error;
      },
      handleReadyForQuery() {
        closeSync(fd);
        if (failure) reject(failure);
        else resolve({ bytes, lines });
      },
    };
    client.query(submittable as never);
  });
}

async function main(): Promise<void> {
  process.env.URL_SIGNING_KEY ??= randomBytes(32).toString('hex');
  const dir = await mkdtemp(join(tmpdir(), 'bench-reports-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    const customerId = newId('customer');
    const now = new Date();
    await db.customer.create({
      data: { id: customerId, accountId: account.id, channelId: channel.id, type: 'INDIVIDUAL', email: 'ada@example.com', tax: { taxability: 'TAXABLE' }, status: 'ACTIVE', createdAt: now, updatedAt: now },
    });
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();

    const seeded = await measured(() => seed(client, account.id, channel.id, customerId));
    console.log(`seeded ${INVOICES} invoices, ${LINE_ITEMS} line items in ${seeded.seconds.toFixed(1)} s`);

    const scope: ReportScope = {
      reportType: 'INVOICES',
      accountId: account.id,
      channelIds: [],
      dateFrom: FROM,
      dateTo: new Date(FROM.getTime() + 366 * 86_400_000),
      linksValidUntil: new Date(Date.now() + 30 * 86_400_000),
    };
    const storage = new LocalDiskStorage(join(dir, 'files'));
    // Warm up the Prisma client and the plan cache on a small range first.
    await writeReportFile(db, storage, 'reports/warmup/report.csv', { ...scope, dateTo: new Date(FROM.getTime() + 60_000) });

    const exported = await measured(() => writeReportFile(db, storage, reportStorageKey('rprt_bench'), scope));
    const copyPath = join(dir, 'copy.csv');
    const sql = COPY_SELECT.replace('%ACCOUNT%', account.id).replace('%FROM%', scope.dateFrom.toISOString()).replace('%TO%', scope.dateTo.toISOString());
    const copied = await measured(() => copyToFile(client, sql, copyPath));

    const rate = (rows: number, seconds: number) => `${Math.round(rows / seconds).toLocaleString('en-US')} rows/s`;
    const file = exported.result;
    console.log('');
    console.log(`INVOICES report, ${file.rowCount.toLocaleString('en-US')} line items (${LINES_PER_INVOICE} per invoice), export code path (one streamed statement, batches of 1,000 → papaparse → local disk):`);
    console.log(
      `  ${rate(file.rowCount, exported.seconds)}   ${exported.seconds.toFixed(1)} s   ${(file.byteSize / 2 ** 20).toFixed(0)} MiB CSV   RSS before ${exported.startRssMiB.toFixed(0)} MiB, peak ${exported.peakRssMiB.toFixed(0)} MiB`,
    );
    console.log(`PostgreSQL COPY (same rows and columns, pdf_url empty) TO STDOUT (FORMAT csv), read over the pg protocol into a file:`);
    console.log(
      `  ${rate(copied.result.lines, copied.seconds)}   ${copied.seconds.toFixed(1)} s   ${(statSync(copyPath).size / 2 ** 20).toFixed(0)} MiB CSV   RSS before ${copied.startRssMiB.toFixed(0)} MiB, peak ${copied.peakRssMiB.toFixed(0)} MiB`,
    );
    console.log(`ratio export / COPY rows per second: ${(copied.seconds / exported.seconds).toFixed(3)}`);
    if (file.rowCount !== LINE_ITEMS || copied.result.lines !== LINE_ITEMS) {
      throw new Error(`row counts differ: export ${file.rowCount}, COPY ${copied.result.lines}, seeded ${LINE_ITEMS}`);
    }
    await client.end();
    await db.$disconnect();
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
