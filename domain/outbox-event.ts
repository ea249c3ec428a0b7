/**
 * The section 6.1 envelope as it is recorded in the outbox and later delivered.
 * `event_type` is the UPPER_SNAKE form of the catalogue name (section 6.2).
 */
export interface EventEnvelope {
  event_id: string;
  event_type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export function eventTypeOf(catalogueName: string): string {
  return catalogueName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}
