import { poolOf } from '../../prisma/client';
import { CLAIM_SQL } from '../../services/webhooks/sender-claim';
import { createTestDatabase, type TestDatabase } from '../support/database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

// The sender's claim runs a few hundred times a second under load: it must read the deliveries it
// leases and their events by key, whatever the size of the delivery log and the outbox.
it('the claim reads leased deliveries and their events by key, not by scanning the tables', async () => {
  const db = t.db;
  await db.$executeRawUnsafe(`INSERT INTO accounts (id, name, updated_at) VALUES ('acct_plan', 'plan', now())`);
  await db.$executeRawUnsafe(
    `INSERT INTO webhook_endpoints (id, account_id, url, status, event_types, created_at, updated_at)
     VALUES ('whep_plan', 'acct_plan', 'http://127.0.0.1:9/hooks', 'ACTIVE', '{CUSTOMER_CREATED}', now(), now())`,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO outbox_events (id, account_id, event_type, occurred_at, data, dispatched_at)
     SELECT 'evt_' || lpad(g::text, 8, '0'), 'acct_plan', 'CUSTOMER_CREATED', now(), '{}', now() FROM generate_series(1, 20000) g`,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at, handler)
     SELECT 'whdl_' || lpad(g::text, 8, '0'), 'acct_plan', 'whep_plan', 'evt_' || lpad(g::text, 8, '0'), 'CUSTOMER_CREATED',
            CASE WHEN g % 2 = 0 THEN 'SUCCEEDED' ELSE 'PENDING' END, now(), now(), now(), 'SENDER'
     FROM generate_series(1, 20000) g`,
  );
  await db.$executeRawUnsafe('ANALYZE');
  const now = new Date();
  const { rows } = await poolOf(db).query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${CLAIM_SQL}`, [
    now,
    new Date(now.getTime() + 60_000),
    32,
    4,
    512,
    [],
    [],
  ]);
  const scanned = seqScans(rows[0]['QUERY PLAN'][0].Plan);
  expect(scanned).not.toContain('webhook_deliveries');
  expect(scanned).not.toContain('outbox_events');
});
