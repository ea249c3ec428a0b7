import type { MeasureRefusal } from '../../domain/usage/meters';

/** One well-formed event of a batch (the transport checked its shape), with its place in the batch. */
export interface UsageEventInput {
  index: number;
  eventId: string;
  eventName: string;
  customerId: string;
  /** As sent: a section 1 date-time, microseconds kept. */
  timestamp: string;
  /** Epoch ms of `timestamp`. */
  at: number;
  properties: Record<string, unknown>;
  /** `properties` as JSON text. */
  propertiesJson: string;
}

export type RejectionReason =
  | 'INVALID_EVENT'
  | 'CUSTOMER_NOT_FOUND'
  | 'NO_METER'
  | 'TIMESTAMP_TOO_FAR_IN_FUTURE'
  | 'TIMESTAMP_TOO_OLD'
  | MeasureRefusal['reason'];

export type IngestOutcome =
  | { status: 'ACCEPTED' }
  | { status: 'DUPLICATE'; reason?: 'DUPLICATE_IN_BATCH'; context?: Record<string, unknown> }
  | { status: 'REJECTED'; reason: RejectionReason; context: Record<string, unknown> };
