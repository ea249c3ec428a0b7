import type { Database } from '../../../prisma/client';
import { markStripeEventApplied, type StripeEventKey } from './stored-events';

/**
 * An event still unapplied this long after it was stored was dropped by the process that
 * answered Stripe (one alive applies it within milliseconds): the payment sweeper applies it.
 */
export const STRIPE_EVENT_GRACE_MS = 10_000;

/**
 * Stripe stops redelivering after 3 days; an event whose application has failed for as long is
 * marked `failed: …` and left to the operator, so it no longer takes a place in every batch.
 */
export const STRIPE_EVENT_GIVE_UP_MS = 3 * 24 * 60 * 60 * 1000;

/** Marks an event that failed again given up when it is old enough; says whether it was. */
export async function giveUpWhenStale(db: Database, event: StripeEventKey & { receivedAt: Date }, error: unknown, now: Date): Promise<boolean> {
  if (now.getTime() - event.receivedAt.getTime() < STRIPE_EVENT_GIVE_UP_MS) return false;
  return markStripeEventApplied(db, event, `failed: ${error instanceof Error ? error.message : String(error)}`, now);
}
