import { computeSignature } from '../../domain/webhook-signature';
import type { Database } from '../../prisma/client';
import { loopbackAllowed } from './loopback-opt-in';
import { post } from './post';
import { overdueRetries } from './retry-sweep';
import { claimDueDeliveries, type ClaimedDelivery } from './sender-claim';
import { recordSenderResults, type RetryToStart, type SenderResult } from './sender-record';
import { deliveryTimeoutMs, envelopeBody, signingSecrets } from './signing';

/** Defaults of WEBHOOK_ENDPOINT_CONCURRENCY and WEBHOOK_SENDER_CONCURRENCY (docs/configuration.md). */
export const DEFAULT_ENDPOINT_CONCURRENCY = 32;
export const DEFAULT_SENDER_CONCURRENCY = 512;
/** A failing endpoint (failing_since set) gets this share of the cap: a dead one holds few slots for the length of its timeouts. */
const FAILING_SHARE = 8;
/** Results recorded per transaction at most. */
const RECORD_BATCH = 500;
/** Beyond the request's own timeout, how long a claim stays leased: covers recording its result. */
const LEASE_MARGIN_MS = 60_000;
/** A retry workflow's next attempt overdue by this much is started again by the sweep. */
export const DEFAULT_RETRY_GRACE_MS = 2 * 60_000;
const SWEEP_EVERY_MS = 10_000;
const SWEEP_BATCH = 100;

export interface Logger {
  warn(message: string, meta?: Record<string, unknown>): void;
}

export interface SenderDependencies {
  db: Database;
  /** Starts a failed delivery's retry workflow (services/workflows/webhook-delivery.ts, startDeliveryRetry). */
  startRetry: (retry: RetryToStart) => Promise<void>;
  /** The clock attempts are stamped with and due times compared against; the retry workflows' clock. */
  clock?: () => Promise<Date>;
  logger?: Logger;
  endpointConcurrency?: number;
  concurrency?: number;
  pollMs?: number;
  retryGraceMs?: number;
}

export interface WebhookSender {
  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Stops claiming, lets the attempts in flight finish and be recorded; resolves when all is done. */
  stop(): Promise<void>;
}

function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The sender each worker process runs beside its outbox dispatcher (docs/webhooks.md, "Delivery"):
 * claims due first attempts with a lease (services/webhooks/sender-claim.ts), POSTs them signed,
 * and records their results in batches (services/webhooks/sender-record.ts), one transaction per
 * batch while the next requests are out. A failed first attempt is handed to its retry workflow,
 * started after the batch commits; a sweep starts again those whose start may have been lost.
 */
export function runWebhookSender(deps: SenderDependencies, isStopping: () => boolean = () => false): WebhookSender {
  const clock = deps.clock ?? (async () => new Date());
  const logger = deps.logger ?? console;
  const endpointCap = deps.endpointConcurrency ?? positiveInteger(process.env.WEBHOOK_ENDPOINT_CONCURRENCY, DEFAULT_ENDPOINT_CONCURRENCY);
  const concurrency = deps.concurrency ?? positiveInteger(process.env.WEBHOOK_SENDER_CONCURRENCY, DEFAULT_SENDER_CONCURRENCY);
  const pollMs = deps.pollMs ?? 100;
  const graceMs = deps.retryGraceMs ?? DEFAULT_RETRY_GRACE_MS;

  let stopped = false;
  const stopping = () => stopped || isStopping();
  // Claimed and not yet recorded; of those, `answered` have had their request end.
  const held = new Set<string>();
  const answered = new Set<string>();
  const pendingResults: SenderResult[] = [];
  let flushing: Promise<void> | undefined;
  const starting = new Set<Promise<void>>();
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let lastSweep = Number.NEGATIVE_INFINITY;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const idle = (ms: number) =>
    new Promise<void>((done) => {
      if (woken) return done();
      const timer = setTimeout(() => finish(), ms);
      const finish = () => {
        clearTimeout(timer);
        wakeUp = undefined;
        done();
      };
      wakeUp = finish;
    });

  const startRetries = (retries: RetryToStart[]) => {
    for (const retry of retries) {
      const started = deps.startRetry(retry).catch((error) => logger.warn('Webhook retry workflow not started; the sweep will start it', { error: String(error) }));
      starting.add(started);
      void started.finally(() => starting.delete(started));
    }
  };

  const flush = async () => {
    while (pendingResults.length > 0) {
      const batch = pendingResults.splice(0, RECORD_BATCH);
      let retries: RetryToStart[] = [];
      for (let tries = 1; ; tries++) {
        try {
          retries = await recordSenderResults(deps.db, batch);
          break;
        } catch (error) {
          // Left leased: once the lease expires another claim sends them again (at least once).
          if (tries === 3) {
            logger.warn('Webhook results not recorded; their deliveries are sent again after the lease', { error: String(error), count: batch.length });
            break;
          }
          await new Promise((r) => setTimeout(r, 50 * tries));
        }
      }
      for (const r of batch) {
        held.delete(r.deliveryId);
        answered.delete(r.deliveryId);
      }
      wake();
      startRetries(retries);
    }
  };
  const record = (result: SenderResult) => {
    pendingResults.push(result);
    answered.add(result.deliveryId);
    // Its slot is free for the next claim already; the result goes in the next batch.
    wake();
    flushing ??= flush().finally(() => (flushing = undefined));
  };

  const send = async (delivery: ClaimedDelivery, secret: string | undefined) => {
    if (secret === undefined) {
      logger.warn('Webhook endpoint has no live secret; its delivery waits for its lease to expire', { endpointId: delivery.endpointId });
      held.delete(delivery.id);
      return;
    }
    const at = await clock();
    const body = envelopeBody({ id: delivery.eventId, eventType: delivery.eventType, occurredAt: delivery.occurredAt, data: delivery.data });
    const answer = await post(delivery.url, body, computeSignature(secret, body), { timeoutMs: deliveryTimeoutMs(), allowLoopback: loopbackAllowed() });
    record({ deliveryId: delivery.id, endpointId: delivery.endpointId, eventId: delivery.eventId, attempt: delivery.attempt, leaseUntil: delivery.leaseUntil, at, answer });
  };

  const sweep = async (now: Date) => {
    startRetries(await overdueRetries(deps.db, new Date(now.getTime() - graceMs), SWEEP_BATCH));
  };

  const loop = async () => {
    let failures = 0;
    while (!stopping()) {
      try {
        woken = false;
        const now = await clock();
        if (now.getTime() - lastSweep >= SWEEP_EVERY_MS) {
          lastSweep = now.getTime();
          await sweep(now);
        }
        const free = concurrency - (held.size - answered.size);
        const claimed = await claimDueDeliveries(deps.db, {
          now,
          leaseUntil: new Date(now.getTime() + deliveryTimeoutMs() + LEASE_MARGIN_MS),
          endpointCap,
          failingEndpointCap: Math.max(1, Math.ceil(endpointCap / FAILING_SHARE)),
          limit: free,
          held: [...held],
          answered: [...answered],
        });
        failures = 0;
        if (claimed.length > 0) {
          const secrets = await signingSecrets(deps.db, [...new Set(claimed.map((d) => d.endpointId))]);
          for (const delivery of claimed) {
            held.add(delivery.id);
            void send(delivery, secrets.get(delivery.endpointId)).catch((error) => {
              held.delete(delivery.id);
              logger.warn('Webhook attempt failed in the platform; sent again after its lease', { error: String(error) });
            });
          }
        }
        if (claimed.length === 0 || claimed.length === free) await idle(pollMs);
      } catch (error) {
        if (stopping()) break;
        failures++;
        logger.warn('Webhook sender failed; retrying', { error: String(error), failures });
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** failures)));
      }
    }
  };
  const looping = loop();

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await looping;
      while (held.size > 0 || flushing || starting.size > 0) {
        await Promise.all([flushing, ...starting]);
        if (held.size > 0 && !flushing) await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
