import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookReceiver, MemoryEventIdStore, type WebhookEvent, type WebhookOutcome } from '../../domain/webhook-receiver';

/** What the test receiver does with a request before the kit sees it. */
export type Behaviour = 'ACCEPT' | { status: number } | { delayMs: number };

export interface ReceivedRequest {
  body: Buffer;
  signature: string | undefined;
  status: number;
  outcome: WebhookOutcome | 'FORCED';
  eventId?: string;
}

export interface TestReceiver {
  url: string;
  /** Every request, in arrival order. */
  requests: ReceivedRequest[];
  /** Events the kit handed to onEvent: each event_id at most once. */
  processed: WebhookEvent[];
  /** Decides each request's fate; ACCEPT by default. */
  behave(next: (request: { eventId?: string; count: number }) => Behaviour): void;
  setSecrets(secrets: string[]): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 built on the receiver kit, as a merchant's service would be. */
export async function startReceiver(secrets: string[] = []): Promise<TestReceiver> {
  let current = secrets;
  let behaviour: (request: { eventId?: string; count: number }) => Behaviour = () => 'ACCEPT';
  const requests: ReceivedRequest[] = [];
  const processed: WebhookEvent[] = [];
  const kit = createWebhookReceiver({ secrets: () => current, store: new MemoryEventIdStore(), onEvent: (event) => processed.push(event) });
  const counts = new Map<string, number>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const signature = req.headers.signature as string | undefined;
      let eventId: string | undefined;
      try {
        eventId = (JSON.parse(body.toString('utf8')) as { event_id?: string }).event_id;
      } catch {
        eventId = undefined;
      }
      const count = (counts.get(eventId ?? '') ?? 0) + 1;
      counts.set(eventId ?? '', count);
      const decided = behaviour({ eventId, count });
      if (decided !== 'ACCEPT' && 'status' in decided) {
        requests.push({ body, signature, status: decided.status, outcome: 'FORCED', eventId });
        res.writeHead(decided.status).end();
        return;
      }
      if (decided !== 'ACCEPT') await new Promise((r) => setTimeout(r, decided.delayMs));
      const result = await kit.handle(body, req.headers);
      requests.push({ body, signature, status: result.status, outcome: result.outcome, eventId });
      if (!res.destroyed) res.writeHead(result.status).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    processed,
    behave(next) {
      behaviour = next;
    },
    setSecrets(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
