import { newId } from '../../domain/ids';
import { isSuccessStatus } from '../../domain/webhook-delivery-failure';
import { computeSignature } from '../../domain/webhook-signature';
import type { Database, Prisma } from '../../prisma/client';
import { lockEndpointsToNote, noteAttemptOutcomes } from './endpoint-failures';
import { loopbackAllowed } from './loopback-opt-in';
import { post, type Answer } from './post';
import { deliveryTimeoutMs, envelopeBody, signingSecrets } from './signing';

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
   * Only for delivery workflows started by the dispatcher before the sender existed: their first
   * attempt creates the delivery row if the dispatcher's transaction has not (yet) committed it.
   */
  createIfMissing: boolean;
}

export type AttemptDeliveryResult = { status: 'SUCCEEDED' | 'FAILED' | 'STOPPED' } | { status: 'PENDING'; claim: string };

/**
 * One attempt of a delivery workflow (docs/webhooks.md, "Retries"): checks the workflow still
 * holds the delivery and the endpoint still receives, signs the envelope bytes, POSTs them, and
 * records the attempt with the delivery's and the endpoint's new state in one transaction.
 * Throws only for the platform's own failures (database, secrets): a receiver's answer is a result.
 */
export async function attemptDelivery(db: Database, input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
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

  const secret = (await signingSecrets(db, [input.endpointId])).get(input.endpointId);
  if (secret === undefined) throw new Error(`Webhook endpoint ${input.endpointId} has no live secret.`);
  const body = envelopeBody(event);
  const answer = await post(endpoint.url, body, computeSignature(secret, body), { timeoutMs: deliveryTimeoutMs(), allowLoopback: loopbackAllowed() });

  return db.$transaction((tx) => recordAttempt(tx, input, delivery.id, at, answer));
}

/**
 * The row of a delivery dispatched before the sender existed, also written by that dispatcher's
 * transaction; whichever comes first wins.
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
  const succeeded = isSuccessStatus(answer.responseStatus);
  const outcome = { endpointId: input.endpointId, at, succeeded };
  const failing = await lockEndpointsToNote(tx, [outcome]);
  await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${deliveryId} FOR UPDATE`;
  await tx.webhookDeliveryAttempt.createMany({
    data: [{ id: newId('webhookDeliveryAttempt'), deliveryId, attempt: input.attempt, requestedAt: at, ...answer }],
    skipDuplicates: true,
  });
  const delivery = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: { status: true, nextAttemptAt: true } });
  // Cancelled or redelivered while the request was out: the attempt is on record, the state is not ours.
  if (delivery.status !== 'PENDING' || delivery.nextAttemptAt?.toISOString() !== input.claim) return { status: 'STOPPED' };

  const disabled = await noteAttemptOutcomes(tx, [outcome], failing);
  if (succeeded) {
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'SUCCEEDED', attemptCount: input.attempt, deliveredAt: at, nextAttemptAt: null, updatedAt: at },
    });
    return { status: 'SUCCEEDED' };
  }
  if (disabled.size > 0 || input.retryInMs === null) {
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
