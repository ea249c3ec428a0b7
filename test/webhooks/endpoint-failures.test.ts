import { attemptDelivery } from '../../services/webhooks/delivery-attempt';
import { recordSenderResults } from '../../services/webhooks/sender-record';
import { countingDatabase } from '../support/query-counter';
import { retryAttempt, senderResult, useRecorderWorld } from './recorder-fixtures';

// docs/webhooks.md, "Endpoints that keep failing" and "Lock order": what the recorders of attempts
// write on the endpoint, and with how many statements.

const world = useRecorderWorld('acct_fails', 204);
let counting: ReturnType<typeof countingDatabase>;
beforeAll(() => {
  counting = countingDatabase(world.t.url);
});
afterAll(() => counting.db.$disconnect());

const fixture = (handler: 'SENDER' | 'RETRY', failingSince?: Date) => world.fixture({ handler, failingSince });

async function endpoint(id: string) {
  return world.t.db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { failingSince: true, status: true } });
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
  expect(await world.t.db.webhookDelivery.findMany({ where: { id: { in: [a!.deliveryId, b!.deliveryId] } }, select: { status: true } })).toEqual([
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
  const second = await fixture('SENDER');
  // The second delivery's endpoint is made the first's, so both attempts are of one endpoint.
  await world.t.db.webhookDelivery.update({ where: { id: second.deliveryId }, data: { endpointId: first.endpointId } });
  const success = new Date(Date.now() - 2_000);
  const failure = new Date(Date.now() - 1_000);
  await recordSenderResults(counting.db, [senderResult(first, 200, success), { ...senderResult(second, 503, failure), endpointId: first.endpointId }]);
  expect(await endpoint(first.endpointId)).toEqual({ failingSince: failure, status: 'ACTIVE' });
});

it("a retry workflow's success clears an endpoint that was failing", async () => {
  const f = await fixture('RETRY', new Date(Date.now() - 3_600_000));
  const result = await attemptDelivery(counting.db, retryAttempt(f));
  expect(result).toEqual({ status: 'SUCCEEDED' });
  expect(await endpoint(f.endpointId)).toEqual({ failingSince: null, status: 'ACTIVE' });
});
