import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Client } from 'pg';
import { copyField, copyRows } from './copy-in';
import { cpuSample, type CpuSample } from './machine-cpu';

/**
 * bench:usage's load generators, each run in a process of its own (scripts/bench/usage.ts): the
 * batches are read from a file written before, one request body per line, so nothing is built
 * or serialized while the clock runs.
 */

export interface LoadReport {
  batches: number;
  events: number;
  accepted: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
  /** The machine's and the watched process's CPU (the API's; this process's own for COPY). */
  cpu: { from: CpuSample; to: CpuSample };
  /** CPU-seconds this load generator used while the clock ran. */
  generatorS: number;
}

function secondsOf(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

function readBatches(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0);
}

/** POSTs a prepared body; resolves with the answer's `accepted` (read from its tail: the results before it need no parsing). */
function poster(baseUrl: string, secret: string, path: string) {
  const agent = new Agent({ keepAlive: true });
  return (payload: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const sent = request(
        `${baseUrl}${path}`,
        {
          agent,
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      sent.on('error', reject);
      sent.end(payload);
    });
}

const ACCEPTED = /"accepted":(\d+),"duplicates":\d+,"rejected":\d+}$/;

/** Every batch of the file through usage-events/ingest, `connections` at a time, as fast as the API answers. */
async function ingest(baseUrl: string, secret: string, file: string, connections: number, watchedPid: number): Promise<LoadReport> {
  const batches = readBatches(file);
  const events = batches.reduce((sum, body) => sum + (body.match(/"event_id"/g)?.length ?? 0), 0);
  const post = poster(baseUrl, secret, '/v2/usage-events/ingest');
  const report: LoadReport = { batches: batches.length, events, accepted: 0, errors: 0, seconds: 0, latenciesMs: [], cpu: undefined!, generatorS: 0 };
  let next = 0;
  const loop = async () => {
    while (next < batches.length) {
      const body = batches[next++]!;
      const started = performance.now();
      const answer = await post(body);
      report.latenciesMs.push(performance.now() - started);
      const accepted = answer.status === 200 ? ACCEPTED.exec(answer.body) : null;
      if (accepted) report.accepted += Number(accepted[1]);
      else if (report.errors++ === 0) console.error(`ingest answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    }
  };
  const from = cpuSample(watchedPid);
  const own = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  report.seconds = (performance.now() - started) / 1000;
  report.cpu = { from, to: cpuSample(watchedPid) };
  report.generatorS = secondsOf(process.cpuUsage(own));
  return report;
}

const COPY_COLUMNS = ['account_id', 'event_id', 'event_name', 'customer_id', '"timestamp"', 'properties', 'received_at'];

interface BatchBody {
  events: { event_id: string; event_name: string; customer_id: string; timestamp: string; properties: unknown }[];
}

/** The same batches as COPY text, one COPY per batch, `connections` at a time: the ceiling of bench:usage (a). */
async function copy(databaseUrl: string, accountId: string, file: string, connections: number): Promise<LoadReport> {
  const receivedAt = new Date().toISOString();
  const chunks = readBatches(file).map((body) => {
    const { events } = JSON.parse(body) as BatchBody;
    const lines = events.map((e) =>
      [accountId, e.event_id, e.event_name, e.customer_id, e.timestamp, JSON.stringify(e.properties), receivedAt].map(copyField).join('\t'),
    );
    return { rows: Buffer.from(`${lines.join('\n')}\n`), events: events.length };
  });
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const report: LoadReport = {
    batches: chunks.length,
    events: chunks.reduce((sum, c) => sum + c.events, 0),
    accepted: 0,
    errors: 0,
    seconds: 0,
    latenciesMs: [],
    cpu: undefined!,
    generatorS: 0,
  };
  let next = 0;
  const loop = async (client: Client) => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const started = performance.now();
      await copyRows(client, 'usage_events', COPY_COLUMNS, chunk.rows);
      report.latenciesMs.push(performance.now() - started);
      report.accepted += chunk.events;
    }
  };
  const from = cpuSample(process.pid);
  const own = process.cpuUsage();
  const started = performance.now();
  await Promise.all(clients.map(loop));
  report.seconds = (performance.now() - started) / 1000;
  report.cpu = { from, to: cpuSample(process.pid) };
  report.generatorS = secondsOf(process.cpuUsage(own));
  await Promise.all(clients.map((c) => c.end()));
  return report;
}

export interface VisibilityReport {
  /** Background batches sent, and those the pace could not start because 8 were still in flight. */
  batches: number;
  skipped: number;
  backgroundEventsPerSecond: number;
  /** Per probe: ms from the ACCEPTED answer to the first summary that counts the event, and from the send. */
  fromAcceptedMs: number[];
  fromSentMs: number[];
  errors: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The sum of the quantities of a summary's buckets for its one meter. */
function summedQuantity(body: string): number {
  const summary = JSON.parse(body) as { meters: { buckets: { quantity: string }[] }[] };
  return summary.meters[0]!.buckets.reduce((sum, bucket) => sum + Number(bucket.quantity), 0);
}

/**
 * (b) The file's batches at a steady `eventsPerSecond` (at most `connections` in flight), and
 * meanwhile, one after the other, probes: one event of `probeCustomer` ingested, then
 * usage/summary of `meterId` (HOUR window over the last hours) asked until it counts it.
 */
async function visibility(
  baseUrl: string,
  secret: string,
  file: string,
  connections: number,
  eventsPerSecond: number,
  durationS: number,
  probeCustomer: string,
  meterId: string,
  eventName: string,
): Promise<VisibilityReport> {
  const batches = readBatches(file);
  const ingestPost = poster(baseUrl, secret, '/v2/usage-events/ingest');
  const probePost = poster(baseUrl, secret, '/v2/usage-events/ingest');
  const summaryPost = poster(baseUrl, secret, '/v2/usage/summary');
  const report: VisibilityReport = { batches: 0, skipped: 0, backgroundEventsPerSecond: 0, fromAcceptedMs: [], fromSentMs: [], errors: 0 };
  const started = Date.now();
  const until = started + durationS * 1000;
  let inFlight = 0;
  let next = 0;
  let backgroundEvents = 0;
  const background = (async () => {
    const intervalMs = (1000 * 1000) / eventsPerSecond;
    for (let due = started; due < until; due += intervalMs) {
      await sleep(Math.max(0, due - Date.now()));
      if (inFlight >= connections || next >= batches.length) {
        report.skipped++;
        continue;
      }
      inFlight++;
      report.batches++;
      void ingestPost(batches[next++]!).then((answer) => {
        inFlight--;
        const accepted = answer.status === 200 ? ACCEPTED.exec(answer.body) : null;
        if (accepted) backgroundEvents += Number(accepted[1]);
        else report.errors++;
      });
    }
    while (inFlight > 0) await sleep(5);
  })();
  const hour = 60 * 60 * 1000;
  const from = new Date(Math.floor(started / hour) * hour - hour).toISOString().replace('Z', '000Z');
  const to = new Date(Math.ceil(until / hour) * hour + hour).toISOString().replace('Z', '000Z');
  const summaryBody = JSON.stringify({ customer_id: probeCustomer, meter_id: meterId, window: 'HOUR', from, to });
  let expected = 0;
  for (let n = 0; Date.now() < until; n++) {
    const sentAt = performance.now();
    const event = { event_id: `probe_${started}_${n}`, event_name: eventName, customer_id: probeCustomer, timestamp: new Date().toISOString().replace('Z', '000Z'), properties: { region: 'eu-west', tokens: 1 } };
    const answer = await probePost(JSON.stringify({ events: [event] }));
    const acceptedAt = performance.now();
    if (answer.status !== 200 || !answer.body.includes('"status":"ACCEPTED"')) {
      report.errors++;
      continue;
    }
    expected++;
    for (;;) {
      const summary = await summaryPost(summaryBody);
      if (summary.status !== 200) {
        report.errors++;
        break;
      }
      if (summedQuantity(summary.body) >= expected) {
        const visibleAt = performance.now();
        report.fromAcceptedMs.push(visibleAt - acceptedAt);
        report.fromSentMs.push(visibleAt - sentAt);
        break;
      }
    }
    await sleep(20);
  }
  await background;
  report.backgroundEventsPerSecond = backgroundEvents / ((Date.now() - started) / 1000);
  return report;
}

const [mode, ...args] = process.argv.slice(2);
const work: Promise<unknown> =
  mode === 'ingest'
    ? ingest(args[0]!, args[1]!, args[2]!, Number(args[3]), Number(args[4]))
    : mode === 'copy'
      ? copy(args[0]!, args[1]!, args[2]!, Number(args[3]))
      : mode === 'visibility'
        ? visibility(args[0]!, args[1]!, args[2]!, Number(args[3]), Number(args[4]), Number(args[5]), args[6]!, args[7]!, args[8]!)
        : Promise.reject(new Error(`unknown mode ${mode}`));
work
  .then((report) => process.stdout.write(JSON.stringify(report)))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
