import { eventTypeOf } from './outbox-event';

/** Section 6.2: every event the platform emits, by its catalogue name. */
export const EVENT_NAMES = [
  'InvoiceCreated',
  'InvoiceUpdated',
  'InvoiceFinalized',
  'InvoiceFinalizationFailed',
  'InvoicePaid',
  'InvoiceVoided',
  'InvoiceDeleted',
  'InvoicePaymentFailed',
  'InvoicePaymentRefunded',
  'InvoiceDunningStarted',
  'InvoiceUnpaid',
  'SubscriptionCreated',
  'SubscriptionUpdated',
  'SubscriptionScheduledForCancellation',
  'SubscriptionCancelled',
  'SubscriptionTrialActivated',
  'SubscriptionActivated',
  'SubscriptionExpired',
  'SubscriptionRedemptionStarted',
  'SubscriptionUnpaid',
  'SubscriptionRenewed',
  'CustomerCreated',
  'CustomerUpdated',
  'PaymentInstrumentCreated',
  'PaymentInstrumentRevoked',
  'PaymentInstrumentExpired',
  'RoutingConfigVersionPublished',
] as const;

/**
 * Events the platform adds beyond section 6.2. Section 9 makes new event types opt-in: an
 * endpoint receives them only once it names them, never by default (docs/webhooks.md).
 */
export const OPT_IN_EVENT_NAMES = ['CreditNoteCreated', 'CreditNoteVoided', 'InvoicePaymentActionRequired', 'PaymentDisputed'] as const;

/**
 * Events sent to one endpoint on request and never dispatched to subscribers, so no endpoint
 * names them in its `event_types`: `WebhookTest` (`WEBHOOK_TEST`) of webhooks/send-test-event
 * (docs/webhooks.md, "Test events").
 */
export const ON_REQUEST_EVENT_NAMES = ['WebhookTest'] as const;

export type EventName = (typeof EVENT_NAMES)[number] | (typeof OPT_IN_EVENT_NAMES)[number] | (typeof ON_REQUEST_EVENT_NAMES)[number];

/** The wire `event_type`: `InvoiceDeleted` is `INVOICE_DELETED`, as the spec shows for three of them. */
export const EVENT_TYPES: Record<EventName, string> = Object.fromEntries(
  [...EVENT_NAMES, ...OPT_IN_EVENT_NAMES, ...ON_REQUEST_EVENT_NAMES].map((name) => [name, eventTypeOf(name)]),
) as Record<EventName, string>;
