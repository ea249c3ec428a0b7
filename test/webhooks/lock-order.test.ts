import { Client } from 'pg';
import { attemptDelivery } from '../../services/webhooks/delivery-attempt';
import { recordSenderResults } from '../../services/webhooks/sender-record';
import { retryAttempt, senderResult, useRecorderWorld, type RecorderFixture } from './recorder-fixtures';

// docs/webhooks.md, "Lock order": webhooks/patch and delete lock an endpoint, then cancel its
// PENDING deliveries. Each test holds that first lock in a transaction of its own (as a patch to
// INACTIVE would), lets a recorder of attempts run into it, then cancels the deliveries as the
// patch does. A recorder that had locked a delivery before waiting for the endpoint deadlocks here.

const world = useRecorderWorld('acct_locks', 500);
const fixture = world.fixture;

/** A patch to INACTIVE, stopped after its first lock: `cancel()` does the rest and commits. */
async function holdEndpointLock(endpointId: string) {
  const client = new Client({ connectionString: world.t.url });
  await client.connect();
  await client.query('BEGIN');
  // Without the lock order the two transactions deadlock: whichever PostgreSQL aborts, the test fails.
  await client.query(`SET LOCAL lock_timeout = '10s'`);
  await client.query('SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpointId]);
  return {
    async cancel() {
      try {
        await client.query(`UPDATE webhook_endpoints SET status = 'INACTIVE' WHERE id = $1`, [endpointId]);
        const cancelled = await client.query(
          `UPDATE webhook_deliveries SET status = 'CANCELLED', next_attempt_at = NULL WHERE endpoint_id = $1 AND status = 'PENDING'`,
          [endpointId],
        );
        await client.query('COMMIT');
        return cancelled.rowCount;
      } finally {
        await client.end();
      }
    },
  };
}

/** Resolves once another session of this database waits on a row lock. */
async function someoneWaitsOnALock(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [row] = await world.t.db.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (row!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('No session waited on the held endpoint lock.');
}

async function deliveryStatus(id: string) {
  return (await world.t.db.webhookDelivery.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
}

/** The sender records one attempt of `f` answered with `status` while a patch holds its endpoint. */
async function senderRecordsDuringPatch(f: RecorderFixture, status: number) {
  const patch = await holdEndpointLock(f.endpointId);
  const recording = recordSenderResults(world.t.db, [senderResult(f, status)]);
  await someoneWaitsOnALock();
  return { patch, recording };
}

it("the sender's failed attempt waits for the endpoint before touching its delivery", async () => {
  const f = await fixture({ handler: 'SENDER' });
  const { patch, recording } = await senderRecordsDuringPatch(f, 500);
  await expect(patch.cancel()).resolves.toBe(1);
  // Cancelled while its request was out: the attempt is on record, no retry is started.
  await expect(recording).resolves.toEqual([]);
  expect(await deliveryStatus(f.deliveryId)).toBe('CANCELLED');
  expect(await world.t.db.webhookDeliveryAttempt.count({ where: { deliveryId: f.deliveryId } })).toBe(1);
});

it("the sender's success on a failing endpoint (which it clears) waits for the endpoint first", async () => {
  const f = await fixture({ handler: 'SENDER', failingSince: new Date(Date.now() - 3_600_000) });
  const { patch, recording } = await senderRecordsDuringPatch(f, 200);
  await expect(patch.cancel()).resolves.toBe(1);
  await expect(recording).resolves.toEqual([]);
  expect(await deliveryStatus(f.deliveryId)).toBe('CANCELLED');
});

it("a retry workflow's failed attempt waits for the endpoint before locking its delivery", async () => {
  const f = await fixture({ handler: 'RETRY' });
  const patch = await holdEndpointLock(f.endpointId);
  const attempt = attemptDelivery(world.t.db, retryAttempt(f));
  await someoneWaitsOnALock();
  await expect(patch.cancel()).resolves.toBe(1);
  await expect(attempt).resolves.toEqual({ status: 'STOPPED' });
  expect(await deliveryStatus(f.deliveryId)).toBe('CANCELLED');
  expect(await world.t.db.webhookDeliveryAttempt.count({ where: { deliveryId: f.deliveryId } })).toBe(1);
});
