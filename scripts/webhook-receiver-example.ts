import { createServer } from 'node:http';
import { createWebhookReceiver, MemoryEventIdStore, type WebhookEvent } from '../domain/webhook-receiver';

/**
 * `npm run webhooks:example-receiver`: a merchant's webhook receiver in ~40 lines, on the receiver
 * kit (docs/webhook-receiver.md). Register its URL with webhooks/create, activate the endpoint
 * with webhooks/patch, and start it with the secret(s) the platform returned:
 *
 *   WEBHOOK_SECRETS=wsec_… [RECEIVER_PORT=4000] npm run webhooks:example-receiver
 *
 * During a rotation overlap give both secrets, comma-separated: WEBHOOK_SECRETS=wsec_old,wsec_new.
 */
const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
if (secrets.length === 0) {
  console.error('Set WEBHOOK_SECRETS to the endpoint secret (wsec_…); during a rotation, both, comma-separated.');
  process.exit(1);
}
const port = Number(process.env.RECEIVER_PORT ?? 4000);

/** The work itself runs after the answer: section 6.1 asks for a prompt 200. */
const queue: WebhookEvent[] = [];
function drain(): void {
  for (let event = queue.shift(); event; event = queue.shift()) {
    console.log(`${event.occurred_at}  ${event.event_type}  ${event.event_id}`);
  }
}

const receiver = createWebhookReceiver({
  secrets,
  // One process: memory is enough. Several instances share a store (see docs/webhook-receiver.md).
  store: new MemoryEventIdStore(),
  onEvent: (event) => {
    queue.push(event);
    setImmediate(drain);
  },
});

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // The raw bytes, not a parsed-and-reserialised body: the signature covers them exactly.
    receiver.handle(Buffer.concat(chunks), req.headers).then(
      (result) => {
        if (result.outcome !== 'PROCESSED') console.warn(`${result.status} ${result.outcome}${result.event ? ` ${result.event.event_id}` : ''}`);
        res.writeHead(result.status).end();
      },
      (error) => {
        console.error(error);
        res.writeHead(500).end();
      },
    );
  });
});

server.listen(port, '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${port}/ (register this URL with webhooks/create)`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
