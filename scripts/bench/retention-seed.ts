import type { Client } from 'pg';

/**
 * Expired rows for bench:retention, written by `INSERT … SELECT generate_series` in chunks (one
 * transaction each), never through the API. Every row is past the default retention and not
 * needed by any live guarantee: dispatched events, final deliveries and their attempts, expired
 * idempotency records, old audit rows, portal sessions and applied Stripe events.
 */
export const SHARES: ReadonlyArray<readonly [table: string, share: number]> = [
  ['outbox_events', 0.3],
  ['webhook_deliveries', 0.15],
  ['webhook_delivery_attempts', 0.15],
  ['idempotency_records', 0.2],
  ['dashboard_audit_log', 0.1],
  ['customer_portal_sessions', 0.05],
  ['stripe_events', 0.05],
];

const CHUNK = 500_000;

function insertOf(table: string, accountId: string, endpointId: string): (from: number, to: number) => string {
  const old = `now() - interval '500 days' + (i % 1000) * interval '1 second'`;
  switch (table) {
    case 'outbox_events':
      return (from, to) => `INSERT INTO outbox_events (id, account_id, event_type, occurred_at, data, dispatched_at, created_at)
        SELECT 'evt_seed' || i, '${accountId}', 'CUSTOMER_CREATED', ${old}, '{"customer":{"id":"cust_seed"}}', ${old}, ${old}
        FROM generate_series(${from}, ${to}) i`;
    // Delivery i is of event i, so the events with a delivery go only after it.
    case 'webhook_deliveries':
      return (from, to) => `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, status, attempt_count, delivered_at, created_at, updated_at, handler)
        SELECT 'whdl_seed' || i, '${accountId}', '${endpointId}', 'evt_seed' || i, 'CUSTOMER_CREATED', 'SUCCEEDED', 1, ${old}, ${old}, ${old}, 'SENDER'
        FROM generate_series(${from}, ${to}) i`;
    case 'webhook_delivery_attempts':
      return (from, to) => `INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, requested_at, response_status, duration_ms)
        SELECT 'what_seed' || i, 'whdl_seed' || i, 1, ${old}, 200, 12
        FROM generate_series(${from}, ${to}) i`;
    case 'idempotency_records':
      return (from, to) => `INSERT INTO idempotency_records (api_key_id, key, operation, request_hash, response_status, response_body, created_at, expires_at)
        SELECT 'akey_seed', 'key-' || i, 'invoices/create', md5(i::text), 200, '{"id":"inv_seed"}', ${old}, ${old} + interval '1 day'
        FROM generate_series(${from}, ${to}) i`;
    case 'dashboard_audit_log':
      return (from, to) => `INSERT INTO dashboard_audit_log (id, account_id, user_id, user_email, action, object_id, created_at)
        SELECT 'aud_seed' || i, '${accountId}', 'usr_seed', 'seed@example.test', 'invoices/void', 'inv_seed' || i, ${old}
        FROM generate_series(${from}, ${to}) i`;
    case 'customer_portal_sessions':
      return (from, to) => `INSERT INTO customer_portal_sessions (id, account_id, channel_id, customer_id, link_hash, created_by, created_at, link_expires_at)
        SELECT 'cps_seed' || i, '${accountId}', 'chn_seed', 'cust_seed', decode(md5(i::text), 'hex'), 'akey_seed', ${old}, ${old} + interval '10 minutes'
        FROM generate_series(${from}, ${to}) i`;
    case 'stripe_events':
      return (from, to) => `INSERT INTO stripe_events (account_id, event_id, type, payload, received_at, applied_at, outcome)
        SELECT '${accountId}', 'evt_stripe_seed' || i, 'payment_intent.succeeded', '{}', ${old}, ${old}, 'applied'
        FROM generate_series(${from}, ${to}) i`;
    default:
      throw new Error(`no seed for ${table}`);
  }
}

/** Seeds `total` rows over SHARES; the deliveries' attempts match them one to one. Returns rows per table. */
export async function seedExpiredRows(client: Client, total: number, accountId: string, endpointId: string, onChunk: (table: string, done: number) => void) {
  const rows = new Map<string, number>();
  const deliveries = Math.floor(total * SHARES.find(([table]) => table === 'webhook_deliveries')![1]);
  for (const [table, share] of SHARES) {
    const count = table === 'webhook_delivery_attempts' ? deliveries : Math.floor(total * share);
    const insert = insertOf(table, accountId, endpointId);
    for (let from = 1; from <= count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK - 1);
      await client.query(insert(from, to));
      onChunk(table, to);
    }
    rows.set(table, count);
  }
  await client.query('ANALYZE');
  return rows;
}
