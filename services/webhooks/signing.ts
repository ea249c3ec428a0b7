import { formatDateTime } from '../../domain/datetime';
import type { EventEnvelope } from '../../domain/outbox-event';
import { openSecret } from '../../domain/secret-box';
import { DEFAULT_DELIVERY_TIMEOUT_MS } from '../../domain/webhook-retry-schedule';
import { webhookSecretPurpose } from '../../domain/webhook-signature';
import type { Prisma } from '../../prisma/client';
import { secretsKey } from '../secrets/secrets-key';

type Db = Prisma.TransactionClient;

/** WEBHOOK_DELIVERY_TIMEOUT_MS of the worker, read at each attempt. */
export function deliveryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.WEBHOOK_DELIVERY_TIMEOUT_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_DELIVERY_TIMEOUT_MS;
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
 * The secrets deliveries to each endpoint are signed with (docs/webhooks.md, "Secrets and
 * rotation"): during a rotation overlap the previous one, which the receiver already has, else
 * the current one. One query for any number of endpoints; an endpoint with no live secret is absent.
 */
export async function signingSecrets(db: Db, endpointIds: string[]): Promise<Map<string, string>> {
  const live = await db.webhookEndpointSecret.findMany({
    where: { endpointId: { in: endpointIds }, revokedAt: null },
    select: { id: true, endpointId: true, sealed: true, expiresAt: true },
    orderBy: { id: 'asc' },
  });
  const secrets = new Map<string, string>();
  for (const endpointId of new Set(live.map((s) => s.endpointId))) {
    const own = live.filter((s) => s.endpointId === endpointId);
    const chosen = own.find((s) => s.expiresAt !== null) ?? own[own.length - 1]!;
    secrets.set(endpointId, openSecret(secretsKey(), webhookSecretPurpose(chosen.id), chosen.sealed));
  }
  return secrets;
}
