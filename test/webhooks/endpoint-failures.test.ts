import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { attemptDelivery } from '../../services/webhooks/delivery-attempt';
import { recordSenderResults } from '../../services/webhooks/sender-record';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countingDatabase } from '../support/query-counter';
import { pendingDelivery, senderResult } from './recorder-fixtures';

// docs/webhooks.md, "Endpoints that keep failing" and "Lock order": what the recorders of attempts
// write on the endpoint, and with how many statements.

let t: TestDatabase;
let counting: ReturnType<typeof countingDatabase>;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  t = await createTestDatabase();
  counting = countingDatabase(t.url);
  await t.db.$executeRawUnsafe(`INSERT INTO accounts (id, name, updated_at) VALUES ('acct_fails', 'fails', now())`);
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await counting.db.$disconnect();
  await t.drop();
});

const fixture = (handler: 'SENDER' | 'RETRY', failingSince?: Date) => pendingDelivery(t.db, { accountId: 'acct_fails', url: receiverUrl, handler, failingSince });

async function endpoint(id: string) {
  return t.db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { failingSince: true, status: true } });
}

/** The statements of `work` that name the endpoints' table. */
async function endpointStatements(work: () => Promise<unknown>): Promise<string[]> {
  const { count } = await counting.measure(work);
  return count.texts.filter((text) => text.includes('webhook_endpoints')).map((text) => text.replace(/\s+/g, ' ').trim().slice(0, 80));
}

it('successes on healthy endpoints take one look at them and write nothing to them', async () => {
  const [a, b] = [await fixture('SENDER'), await fixture('SENDER')];
  const statements = await endpointStatements(() => recordSenderResults(counting.db, [senderResult(a!, 200), senderResult(b!, 204)]));
  expect(statements).toEqual([expect.stringMatching(/^SELECT id, failing_since IS NOT NULL/)]);
  expect(await endpoint(a!.endpointId)).toEqual({ failingSince: null, status: 'ACTIVE' });
  expect(await t.db.webhookDelivery.findMany({ where: { id: { in: [a!.deliveryId, b!.deliveryId] } }, select: { status: true } })).toEqual([
    { status: 'SUCCEEDED' },
    { status: 'SUCCEEDED' },
  ]);
});

it("the sender's success clears an endpoint that was failing", async () => {
  const f = await fixture('SENDER', new Date(Date.now() - 3_600_000));
  const statements = await endpointStatements(() => recordSenderResults(counting.db, [senderResult(f, 200)]));
  expect(statements).toEqual([expect.stringMatching(/^SELECT id, failing_since IS NOT NULL/), expect.stringMatching(/^UPDATE webhook_endpoints SET failing_since = NULL/)]);
  expect(await endpoint(f.endpointId)).toEqual({ failingSince: null, status: 'ACTIVE' });
});

it("the sender's failure marks a healthy endpoint failing from the attempt, locking it once", async () => {
  const f = await fixture('SENDER');
  const at = new Date(Date.now() - 5_000);
  const statements = await endpointStatements(() => recordSenderResults(counting.db, [senderResult(f, 500, at)]));
  expect(statements).toEqual([expect.stringMatching(/^SELECT id, failing_since IS NOT NULL/), expect.stringMatching(/^UPDATE webhook_endpoints e/)]);
  expect(await endpoint(f.endpointId)).toEqual({ failingSince: at, status: 'ACTIVE' });
});

it('a failure after a success in one batch restarts the run of failures at that failure', async () => {
  const since = new Date(Date.now() - 3_600_000);
  const first = await fixture('SENDER', since);
  const second = await pendingDelivery(t.db, { accountId: 'acct_fails', url: receiverUrl, handler: 'SENDER' });
  // The second delivery's endpoint is made the first's, so both attempts are of one endpoint.
  await t.db.webhookDelivery.update({ where: { id: second.deliveryId }, data: { endpointId: first.endpointId } });
  const success = new Date(Date.now() - 2_000);
  const failure = new Date(Date.now() - 1_000);
  await recordSenderResults(counting.db, [senderResult(first, 200, success), { ...senderResult(second, 503, failure), endpointId: first.endpointId }]);
  expect(await endpoint(first.endpointId)).toEqual({ failingSince: failure, status: 'ACTIVE' });
});

it("a retry workflow's success clears an endpoint that was failing", async () => {
  const f = await fixture('RETRY', new Date(Date.now() - 3_600_000));
  const result = await attemptDelivery(counting.db, {
    eventId: f.eventId,
    endpointId: f.endpointId,
    attempt: 2,
    claim: f.nextAttemptAt.toISOString(),
    at: new Date().toISOString(),
    retryInMs: 60_000,
    createIfMissing: false,
  });
  expect(result).toEqual({ status: 'SUCCEEDED' });
  expect(await endpoint(f.endpointId)).toEqual({ failingSince: null, status: 'ACTIVE' });
});
