import { EVENT_NAMES, EVENT_TYPES } from '../../../domain/event-catalogue';

/** The event types an endpoint can subscribe to, as the API spells them (docs/events.md). */
export const WEBHOOK_EVENT_TYPES: string[] = EVENT_NAMES.map((name) => EVENT_TYPES[name]);
