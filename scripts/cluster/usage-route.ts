import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { formatDateTime } from '../../domain/datetime';
import type { createDatabase } from '../../prisma/client';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ApiClient } from './api-client';

type Database = ReturnType<typeof createDatabase>;

const CUSTOMERS = 6;
const EVENTS_PER_BATCH = 200;
/** Of a batch's events, how many are sent again: an id of an earlier batch, any client's, maybe still in flight. */
const REPEATED_SHARE = 0.25;
/** And how many repeat an id earlier in the same batch (DUPLICATE_IN_BATCH). */
const REPEATED_IN_BATCH_SHARE = 0.02;
/** A request unanswered this long is taken for lost and the batch sent again, while the first copy may still be running. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Beyond this a batch that never gets an answer fails the run. */
const BATCH_DEADLINE_MS = 120_000;
const REGIONS = ['eu', 'us', 'ap'];

export interface UsageRouteOptions {
  db: Database;
  /** The ports of the live API processes. */
  ports: () => number[];
  /** Client loops; every other one sends its batches with an Idempotency-Key. */
  loops: number;
  log: (message: string) => void;
}

export interface UsageCounts {
  traffic: string;
  mustBeZero: Record<string, number>;
}

interface SentEvent {
  event_id: string;
  event_name: string;
  customer_id: string;
  timestamp: string;
  properties: { region: string; tokens: number };
}

/**
 * The usage route of `npm run test:cluster` (docs/usage.md, "Ingestion"): a third account with a
 * COUNT meter grouped by region and a SUM meter of the same events, and client loops sending
 * batches through every live API, a quarter of each batch ids sent before (by any loop, maybe in
 * flight), each batch sent again, the same, on any error or timeout until it is answered. The run
 * kills APIs and PostgreSQL with SIGKILL meanwhile. Afterwards the database must hold exactly the
 * events sent, every one a client was told ACCEPTED among them, and roll-ups that add up to them.
 */
export class UsageRoute {
  readonly stats = { batches: 0, resent: 0, timedOut: 0, failedBatches: 0 };
  /** Every event put in a batch, by id; an id always carries the same event. */
  private readonly sent = new Map<string, SentEvent>();
  private readonly ids: string[] = [];
  /** How many answers said ACCEPTED, DUPLICATE (not in the batch) or REJECTED for each id. */
  private readonly accepted = new Map<string, number>();
  private readonly duplicates = new Set<string>();
  private readonly rejected = new Map<string, string>();
  private readonly inFlight = new Map<number, number>();
  private next = 0;

  private constructor(
    private readonly options: UsageRouteOptions,
    readonly accountId: string,
    private readonly secret: string,
    private readonly customerIds: string[],
    private readonly meters: { count: string; sum: string },
  ) {}

  static async start(options: UsageRouteOptions): Promise<UsageRoute> {
    const { db } = options;
    const account = await createAccount(db, 'cluster-usage');
    await createChannel(db, account.id, 'cluster-usage');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'cluster-usage' });
    const http = new ApiClient(secret, options.ports);
    const count = await http.ok('meters/create', { name: 'API requests', event_name: 'api.request', aggregation: 'COUNT', group_by: ['region'] });
    const sum = await http.ok('meters/create', { name: 'Tokens', event_name: 'api.request', aggregation: 'SUM', property: 'tokens' });
    const customerIds: string[] = [];
    for (let n = 0; n < CUSTOMERS; n++) customerIds.push((await http.ok('customers/create', { type: 'INDIVIDUAL', email: `usage${n}@example.com` })).id);
    options.log(`usage route: account ${account.id}, meters ${count.id} (COUNT by region) and ${sum.id} (SUM of tokens), ${CUSTOMERS} customers`);
    return new UsageRoute(options, account.id, secret, customerIds, { count: count.id, sum: sum.id });
  }

  /** The client loops, until `stopped()`; a batch being sent is sent until answered first. */
  traffic(stopped: () => boolean): Promise<void> {
    const loops = Array.from({ length: this.options.loops }, (_, n) =>
      (async () => {
        const keyed = n % 2 === 1;
        while (!stopped()) {
          if (!(await this.sendUntilAnswered(this.nextBatch(), keyed ? randomUUID() : undefined))) this.stats.failedBatches++;
          this.stats.batches++;
        }
      })(),
    );
    return Promise.all(loops).then(() => undefined);
  }

  /** Resolves once a batch is in flight to the API on `port` (any API when left out). */
  async ingesting(port?: number): Promise<void> {
    const busy = () => (port === undefined ? [...this.inFlight.values()].some((n) => n > 0) : (this.inFlight.get(port) ?? 0) > 0);
    while (!busy()) await delay(5);
  }

  /** From the database: the events stored against those sent and the answers, and the roll-ups against the events. */
  async count(): Promise<UsageCounts> {
    const { db } = this.options;
    const stored = new Set(
      (await db.$queryRaw<{ event_id: string }[]>`SELECT event_id FROM usage_events WHERE account_id = ${this.accountId}`).map((row) => row.event_id),
    );
    const notSent = [...stored].filter((id) => !this.sent.has(id));
    const answered = new Set([...this.accepted.keys(), ...this.duplicates]);
    const answeredNotStored = [...answered].filter((id) => !stored.has(id));
    const acceptedNotStored = [...this.accepted.keys()].filter((id) => !stored.has(id));
    const acceptedTwice = [...this.accepted.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    // Accepted by a request whose answer never came (the API or PostgreSQL killed after the
    // commit): the copy sent again was told DUPLICATE, or ACCEPTED again under its key.
    const answerLost = [...this.duplicates].filter((id) => !this.accepted.has(id)).length;
    for (const [label, ids] of [['stored, never sent', notSent], ['answered, not stored', answeredNotStored], ['told ACCEPTED twice', acceptedTwice]] as const) {
      if (ids.length > 0) this.options.log(`usage route: ${ids.length} events ${label}, e.g. ${ids.slice(0, 5).join(', ')}`);
    }
    for (const [id, reason] of [...this.rejected].slice(0, 5)) this.options.log(`usage route: ${id} REJECTED ${reason}`);

    // Per meter, customer, grain and bucket (groups added up): the COUNT meter's event_count is
    // the number of stored events, the SUM meter's value_sum their tokens.
    const [rollups] = await db.$queryRaw<{ keys: bigint; wrong: bigint; counted: bigint }[]>`
      WITH events AS (
        SELECT e.customer_id, g.grain, date_trunc(g.unit, e."timestamp", 'UTC') AS bucket,
               count(*)::numeric AS n, sum((e.properties ->> 'tokens')::numeric) AS tokens
          FROM usage_events e CROSS JOIN (VALUES ('m', 'minute'), ('h', 'hour')) AS g(grain, unit)
         WHERE e.account_id = ${this.accountId}
         GROUP BY 1, 2, 3
      ),
      expected AS (
        SELECT ${this.meters.count} AS meter_id, customer_id, grain, bucket, n AS value FROM events
        UNION ALL
        SELECT ${this.meters.sum}, customer_id, grain, bucket, tokens FROM events
      ),
      actual AS (
        SELECT meter_id, customer_id, grain, bucket,
               CASE WHEN meter_id = ${this.meters.count} THEN sum(event_count)::numeric ELSE sum(value_sum) END AS value
          FROM usage_rollups WHERE meter_id IN (${this.meters.count}, ${this.meters.sum})
         GROUP BY 1, 2, 3, 4
      )
      SELECT count(*) AS keys,
             count(*) FILTER (WHERE x.value IS DISTINCT FROM a.value) AS wrong,
             coalesce(sum(a.value) FILTER (WHERE a.meter_id = ${this.meters.count} AND a.grain = 'h'), 0)::bigint AS counted
        FROM expected x FULL JOIN actual a USING (meter_id, customer_id, grain, bucket)`;
    const keys = Number(rollups!.keys);
    const wrong = Number(rollups!.wrong);
    const counted = Number(rollups!.counted);
    if (wrong > 0) this.options.log(`usage route: ${wrong} of ${keys} roll-up buckets disagree with the stored events`);

    const told = [...this.accepted.values()].reduce((a, b) => a + b, 0);
    return {
      traffic:
        `${this.stats.batches} batches of ${EVENTS_PER_BATCH} (${this.stats.resent} sent again, ${this.stats.timedOut} of them after a timeout), ` +
        `${this.sent.size} distinct events sent, ${stored.size} stored, ${counted} counted by the COUNT meter's roll-ups; ` +
        `${told} told ACCEPTED, ${answerLost} accepted by a request whose answer was lost`,
      mustBeZero: {
        'usage: events stored that no client sent': notSent.length,
        'usage: events told ACCEPTED and not stored': acceptedNotStored.length,
        'usage: events told ACCEPTED or DUPLICATE and not stored': answeredNotStored.length,
        'usage: events told ACCEPTED more than once': acceptedTwice.length,
        'usage: events REJECTED (every event sent is valid)': this.rejected.size,
        'usage: batches never answered': this.stats.failedBatches,
        'usage: roll-up buckets (meter, customer, grain, bucket) not adding up to the stored events': wrong,
        'usage: stored events the COUNT meter does not count': stored.size - counted,
      },
    };
  }

  /** New events, some sent before: each keeps its id, customer, timestamp and properties whoever sends it again. */
  private nextBatch(): SentEvent[] {
    const batch: SentEvent[] = [];
    for (let k = 0; k < EVENTS_PER_BATCH; k++) {
      const draw = Math.random();
      if (draw < REPEATED_IN_BATCH_SHARE && batch.length > 0) {
        batch.push(batch[Math.floor(Math.random() * batch.length)]!);
      } else if (draw < REPEATED_SHARE && this.ids.length > 0) {
        batch.push(this.sent.get(this.ids[Math.floor(Math.random() * this.ids.length)]!)!);
      } else {
        const n = this.ids.length;
        const event: SentEvent = {
          event_id: `evt_${n}`,
          event_name: 'api.request',
          customer_id: this.customerIds[n % CUSTOMERS]!,
          timestamp: formatDateTime(new Date()),
          properties: { region: REGIONS[n % REGIONS.length]!, tokens: n % 97 },
        };
        this.sent.set(event.event_id, event);
        this.ids.push(event.event_id);
        batch.push(event);
      }
    }
    return batch;
  }

  /** The batch, sent again unchanged (under the same key, if any) until an API answers it; false if none did in time. */
  private async sendUntilAnswered(batch: SentEvent[], idempotencyKey: string | undefined): Promise<boolean> {
    const deadline = Date.now() + BATCH_DEADLINE_MS;
    for (let attempt = 1; Date.now() < deadline; attempt++) {
      if (attempt > 1) this.stats.resent++;
      const ports = this.options.ports();
      const port = ports[this.next++ % ports.length]!;
      this.inFlight.set(port, (this.inFlight.get(port) ?? 0) + 1);
      let answer: { status: number; json: any } | undefined;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v2/usage-events/ingest`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${this.secret}`,
            'content-type': 'application/json',
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: JSON.stringify({ events: batch }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        answer = { status: response.status, json: await response.json() };
      } catch (error) {
        // The connection dropped (a killed API), or no answer in time.
        if ((error as Error).name === 'TimeoutError') this.stats.timedOut++;
      } finally {
        this.inFlight.set(port, this.inFlight.get(port)! - 1);
      }
      if (answer?.status === 200) {
        this.record(answer.json.results);
        return true;
      }
      if (answer && answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
        this.options.log(`usage route: a batch refused whole, ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
        return false;
      }
      await delay(Math.min(1_000, 50 * attempt));
    }
    this.options.log('usage route: a batch not answered in time');
    return false;
  }

  private record(results: Array<{ event_id: string; status: string; reason?: string }>): void {
    for (const result of results) {
      if (result.status === 'ACCEPTED') this.accepted.set(result.event_id, (this.accepted.get(result.event_id) ?? 0) + 1);
      else if (result.status === 'REJECTED') this.rejected.set(result.event_id, result.reason ?? '');
      else if (result.reason !== 'DUPLICATE_IN_BATCH') this.duplicates.add(result.event_id);
    }
  }
}
