import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { EVENT_NAMES, EVENT_TYPES } from '../../domain/event-catalogue';
import { hostRefusal, literalHostScope } from '../../domain/webhook-destination';
import { dateTime, prefixedId } from '../common/schemas';
import { isSuccessStatus } from '../../domain/webhook-delivery-failure';
import { loopbackAllowed } from '../../services/webhooks/loopback-opt-in';

/** Limits the spec leaves open, documented in docs/webhooks.md. */
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

export const ENDPOINT_STATUSES = ['INACTIVE', 'ACTIVE', 'DISABLED'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const WEBHOOK_EVENT_TYPES = EVENT_NAMES.map((name) => EVENT_TYPES[name]) as [string, ...string[]];

export const endpointId = prefixedId('webhookEndpoint');
export const eventId = prefixedId('event');
export const eventType = z.enum(WEBHOOK_EVENT_TYPES);

/**
 * The URL an endpoint receives at, normalised by WHATWG URL parsing (lower-case host, default
 * port dropped, IPv4 in any numeric form made dotted), which is also the form compared for
 * ENDPOINT_ALREADY_EXISTS. HTTPS to a host that is not an internal address literal
 * (domain/webhook-destination.ts; names are checked when resolved, at each attempt); plain HTTP
 * and loopback only when the operator allows loopback receivers. No credentials, no fragment.
 */
export const endpointUrl = z
  .string()
  .max(MAX_URL_LENGTH)
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Expected an absolute URL.', params: { type: 'FORMAT' } });
      return z.NEVER;
    }
    const allowLoopback = loopbackAllowed();
    const refusal = hostRefusal(url.hostname, allowLoopback);
    if (refusal) {
      ctx.addIssue({ code: 'custom', message: refusal, params: { type: 'INVALID' } });
      return z.NEVER;
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && allowLoopback && literalHostScope(url.hostname) === 'LOOPBACK');
    if (!secure) {
      ctx.addIssue({
        code: 'custom',
        message: allowLoopback ? 'Use https; plain http is accepted for loopback receivers only.' : 'Use https.',
        params: { type: 'FORMAT' },
      });
      return z.NEVER;
    }
    if (url.username || url.password || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'A webhook URL carries no credentials and no fragment.', params: { type: 'FORMAT' } });
      return z.NEVER;
    }
    return url.href;
  })
  .meta({
    description:
      'Where deliveries are POSTed: https to a public host (private, loopback, link-local and other internal addresses are refused, also when a name resolves to one). Where the operator allows loopback receivers (local development), also http(s) to localhost, 127.0.0.1 or [::1].',
  });

export const eventTypes = z
  .array(eventType)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, { message: 'Each event type at most once.', params: { type: 'INVALID' } })
  .meta({ uniqueItems: true, description: 'The event_type values delivered to this endpoint. Types added to the platform later are never added here by themselves.' });

export const description = z.string().trim().min(1).regex(/\S/).max(MAX_DESCRIPTION_LENGTH);

/** The webhook endpoint record (section 2.10 leaves it open; docs/webhooks.md). */
export const webhookEndpointObject = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().optional(),
    status: z.enum(ENDPOINT_STATUSES).meta({
      description: 'INACTIVE when created and until patched to ACTIVE; DISABLED by the platform after failing deliveries for 3 days (see disabled_reason).',
    }),
    disabled_reason: z.string().optional(),
    event_types: z.array(z.string()),
    channel_id: z.string().optional().meta({ description: 'Only events of this channel are delivered; absent: every channel of the account.' }),
    rotate_at: dateTime.optional().meta({ description: 'While a rotation overlaps: when the previous secret stops being used.' }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'WebhookEndpoint' });

export type WebhookEndpointObject = z.infer<typeof webhookEndpointObject>;

export interface EndpointRow {
  id: string;
  channelId: string | null;
  url: string;
  description: string | null;
  status: string;
  disabledReason: string | null;
  eventTypes: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Secrets inside a rotation overlap. */
  secrets: { expiresAt: Date | null }[];
}

export function serializeEndpoint(row: EndpointRow): WebhookEndpointObject {
  const rotateAt = row.secrets.map((s) => s.expiresAt!).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    id: row.id,
    url: row.url,
    ...(row.description !== null ? { description: row.description } : {}),
    status: row.status as EndpointStatus,
    ...(row.disabledReason !== null ? { disabled_reason: row.disabledReason } : {}),
    event_types: row.eventTypes,
    ...(row.channelId !== null ? { channel_id: row.channelId } : {}),
    ...(rotateAt ? { rotate_at: formatDateTime(rotateAt) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export const deliveryAttemptObject = z.object({
  id: z.string(),
  attempt: z.number().int().meta({ description: '1 for the first attempt; numbering continues across redeliveries.' }),
  status: z.enum(['SUCCEEDED', 'FAILED']),
  response_status: z.number().int().optional().meta({ description: 'The HTTP status answered; absent after a timeout or connection error.' }),
  error: z.string().optional().meta({
    description:
      'Why it failed, one of a fixed set: HTTP_<status>, TIMEOUT, CONNECTION_REFUSED, TLS_ERROR, DNS_ERROR, ADDRESS_REFUSED (the host resolved to an internal address; nothing was sent), CONNECTION_ERROR.',
  }),
  duration_ms: z.number().int(),
  requested_at: dateTime,
});

export const webhookDeliveryObject = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES).meta({
      description: 'PENDING while attempts remain; SUCCEEDED after a 2xx; FAILED when the retry schedule is exhausted; CANCELLED when the endpoint was deleted, deactivated or disabled first.',
    }),
    attempt_count: z.number().int(),
    next_attempt_at: dateTime.optional(),
    delivered_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
    attempts: z.array(deliveryAttemptObject),
  })
  .meta({ id: 'WebhookDelivery' });

export type WebhookDeliveryObject = z.infer<typeof webhookDeliveryObject>;

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: { id: string; attempt: number; requestedAt: Date; responseStatus: number | null; error: string | null; durationMs: number }[];
}

export function serializeDelivery(row: DeliveryRow): WebhookDeliveryObject {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status as DeliveryStatus,
    attempt_count: row.attemptCount,
    ...(row.nextAttemptAt ? { next_attempt_at: formatDateTime(row.nextAttemptAt) } : {}),
    ...(row.deliveredAt ? { delivered_at: formatDateTime(row.deliveredAt) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    attempts: row.attempts.map((a) => ({
      id: a.id,
      attempt: a.attempt,
      status: isSuccessStatus(a.responseStatus) ? ('SUCCEEDED' as const) : ('FAILED' as const),
      ...(a.responseStatus !== null ? { response_status: a.responseStatus } : {}),
      ...(a.error !== null ? { error: a.error } : {}),
      duration_ms: a.durationMs,
      requested_at: formatDateTime(a.requestedAt),
    })),
  };
}
