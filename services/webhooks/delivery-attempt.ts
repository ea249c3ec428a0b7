import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import type { EventEnvelope } from '../../domain/outbox-event';
import { openSecret } from '../../domain/secret-box';
import { isSuccessStatus, type DeliveryFailure } from '../../domain/webhook-delivery-failure';
import { computeSignature, webhookSecretPurpose } from '../../domain/webhook-signature';
import { ENDPOINT_DISABLE_AFTER_MS } from '../../domain/webhook-retry-schedule';
import type { Database, Prisma } from '../../prisma/client';
import { secretsKey } from '../secrets/secrets-key';
import { cancelPendingDeliveries } from './endpoints';

export interface AttemptDeliveryInput {
  eventId: string;
  endpointId: string;
  attempt: number;
  /**
   * The delivery's `next_attempt_at` as this workflow last set or was given it (ISO 8601). It is
   * the workflow's claim on the delivery: a cancel clears it and a redelivery replaces it, so a
   * workflow that lost its claim ends without sending.
   */
  claim: string;
  /** Workflow time of the attempt (ISO 8601): the clock that spaces retries and measures failing endpoints. */
  at: string;
  /** The delay before the next attempt if this one fails; null when it is the last. */
  retryInMs: number | null;
  /**
   * The first attempt of an original delivery creates the delivery row if the dispatcher's
   * transaction has not (yet) committed it. A redelivery's row is written by webhooks/redeliver.
   */
  createIfMissing: boolean;
}

export type AttemptDeliveryResult = { status: 'SUCCEEDED' | 'FAILED' | 'STOPPED' } | { status: 'PENDING'; claim: string };

/** What one POST to a receiver came to: its status, or why there is none, and how long it took. */
export interface Answer {
  responseStatus: number | null;
  error: DeliveryFailure | null;
  durationMs: number;
}

export interface AttemptDependencies {
  db: Database;
  /** POSTs the signed envelope once; never throws for what the receiver did. */
  send: (url: string, body: Buffer, signature: string) => Promise<Answer>;
}

/** The section 6.1 body, serialised once: these bytes are signed and sent as they are. */
export function envelopeBody(event: { id: string; eventType: string; occurredAt: Date; data: unknown }): Buffer {
  const envelope: EventEnvelope = {
    event_id: event.id,
    event_type: event.eventType,
    occurred_at: formatDateTime(event.occurredAt),
    data: event.data as Record<string, unknown>,
  };
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/**
 * The secret deliveries are signed with (docs/webhooks.md, "Secrets and rotation"): during a
 * rotation overlap the previous one, which the receiver already has, else the current one.
 */
async function signingSecret(db: Database, endpointId: string): Promise<string | undefined> {
  const live = await db.webhookEndpointSecret.findMany({
    where: { endpointId, revokedAt: null },
    select: { id: true, sealed: true, expiresAt: true },
    orderBy: { id: 'asc' },
  });
  const chosen = live.find((s) => s.expiresAt !== null) ?? live[live.length - 1];
  return chosen ? openSecret(secretsKey(), webhookSecretPurpose(chosen.id), chosen.sealed) : undefined;
}

/**
 * The row of an original delivery, also written by the dispatcher's transaction; whichever
 * comes first wins, and an insert racing the dispatcher's uncommitted one waits for its commit.
 */
async function ensureDelivery(db: Database, eventId: string, endpointId: string) {
  const event = await db.outboxEvent.findUniqueOrThrow({ where: { id: eventId } });
  const now = new Date();
  await db.webhookDelivery.createMany({
    data: [
      {
        id: newId('webhookDelivery'),
        accountId: event.accountId,
        endpointId,
        eventId,
        eventType: event.eventType,
        status: 'PENDING',
        nextAttemptAt: event.occurredAt,
        createdAt: now,
        updatedAt: now,
      },
    ],
    skipDuplicates: true,
  });
  return event;
}

/**
 * One delivery attempt (docs/webhooks.md): checks the workflow still holds the delivery and
 * the endpoint still receives, signs the envelope bytes, POSTs them, and records the attempt
 * with the delivery's and the endpoint's new state in one transaction. Retried by Temporal
 * only for its own failures (database, secrets): a receiver's answer is a result.
 */
export async function attemptDelivery(deps: AttemptDependencies, input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
  const { db } = deps;
  const event = input.createIfMissing
    ? await ensureDelivery(db, input.eventId, input.endpointId)
    : await db.outboxEvent.findUniqueOrThrow({ where: { id: input.eventId } });
  const delivery = await db.webhookDelivery.findUnique({
    where: { endpointId_eventId: { endpointId: input.endpointId, eventId: input.eventId } },
    include: { endpoint: { select: { url: true, status: true, deletedAt: true } } },
  });
  // A redelivery whose transaction rolled back after starting this workflow.
  if (!delivery) return { status: 'STOPPED' };
  const recorded = await db.webhookDeliveryAttempt.findUnique({
    where: { deliveryId_attempt: { deliveryId: delivery.id, attempt: input.attempt } },
    select: { id: true },
  });
  // A retry of an attempt whose outcome was already written: report that outcome again.
  if (recorded) return outcomeOf(delivery.status, delivery.nextAttemptAt);
  if (delivery.status !== 'PENDING' || delivery.nextAttemptAt?.toISOString() !== input.claim) return { status: 'STOPPED' };

  const at = new Date(input.at);
  const { endpoint } = delivery;
  if (endpoint.deletedAt !== null || endpoint.status !== 'ACTIVE') {
    await db.webhookDelivery.updateMany({
      where: { id: delivery.id, status: 'PENDING', nextAttemptAt: new Date(input.claim) },
      data: { status: 'CANCELLED', nextAttemptAt: null, updatedAt: at },
    });
    return { status: 'STOPPED' };
  }

  const secret = await signingSecret(db, input.endpointId);
  if (secret === undefined) throw new Error(`Webhook endpoint ${input.endpointId} has no live secret.`);
  const body = envelopeBody(event);
  const answer = await deps.send(endpoint.url, body, computeSignature(secret, body));

  return db.$transaction((tx) => recordAttempt(tx, input, delivery.id, at, answer));
}

function outcomeOf(status: string, nextAttemptAt: Date | null): AttemptDeliveryResult {
  if (status === 'PENDING' && nextAttemptAt) return { status: 'PENDING', claim: nextAttemptAt.toISOString() };
  if (status === 'SUCCEEDED' || status === 'FAILED') return { status };
  return { status: 'STOPPED' };
}

async function recordAttempt(
  tx: Prisma.TransactionClient,
  input: AttemptDeliveryInput,
  deliveryId: string,
  at: Date,
  answer: Answer,
): Promise<AttemptDeliveryResult> {
  await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${deliveryId} FOR UPDATE`;
  await tx.webhookDeliveryAttempt.createMany({
    data: [{ id: newId('webhookDeliveryAttempt'), deliveryId, attempt: input.attempt, requestedAt: at, ...answer }],
    skipDuplicates: true,
  });
  const delivery = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: { status: true, nextAttemptAt: true } });
  // Cancelled or redelivered while the request was out: the attempt is on record, the state is not ours.
  if (delivery.status !== 'PENDING' || delivery.nextAttemptAt?.toISOString() !== input.claim) return { status: 'STOPPED' };

  const succeeded = isSuccessStatus(answer.responseStatus);
  if (succeeded) {
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'SUCCEEDED', attemptCount: input.attempt, deliveredAt: at, nextAttemptAt: null, updatedAt: at },
    });
    await tx.webhookEndpoint.updateMany({ where: { id: input.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
    return { status: 'SUCCEEDED' };
  }

  const disabled = await noteFailure(tx, input.endpointId, at);
  if (disabled || input.retryInMs === null) {
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'FAILED', attemptCount: input.attempt, nextAttemptAt: null, updatedAt: at },
    });
    return { status: 'FAILED' };
  }
  const next = new Date(at.getTime() + input.retryInMs);
  await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: input.attempt, nextAttemptAt: next, updatedAt: at } });
  return { status: 'PENDING', claim: next.toISOString() };
}

/**
 * Marks the endpoint failing from its first failure on; once it has failed for
 * ENDPOINT_DISABLE_AFTER_MS with no success in between, it is DISABLED and everything still
 * pending for it is cancelled. Returns whether this failure disabled it.
 */
async function noteFailure(tx: Prisma.TransactionClient, endpointId: string, at: Date): Promise<boolean> {
  await tx.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: at } });
  const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { status: true, failingSince: true, deletedAt: true } });
  if (endpoint.status !== 'ACTIVE' || endpoint.deletedAt !== null || !endpoint.failingSince) return false;
  if (at.getTime() - endpoint.failingSince.getTime() < ENDPOINT_DISABLE_AFTER_MS) return false;
  await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: {
      status: 'DISABLED',
      disabledReason: `Every delivery failed from ${formatDateTime(endpoint.failingSince)} to ${formatDateTime(at)}; patch status to ACTIVE to resume.`,
      updatedAt: at,
    },
  });
  await cancelPendingDeliveries(tx, endpointId, at);
  return true;
}
