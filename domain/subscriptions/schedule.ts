import { isTerminal } from '../subscription-status';
import { measuresUsage, usageGraceMs } from './billing';
import { periodLine, type SubscriptionState } from './state';

/** What `next_billing_at` shows: the next invoice, unless cancellation, expiry or the status means none comes. */
export function servedNextBillingAt(state: SubscriptionState): number | null {
  const at = state.nextCycleAt;
  if (at === null || !['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'].includes(state.status)) return null;
  if (state.cancellation && state.cancellation.cancelAt <= at) return null;
  if (state.endsAt !== null && state.endsAt <= at) return null;
  return at;
}

/** The end of the period the subscription is in: the trial's end while TRIALING, else the billed period's. */
export function currentPeriodEnd(state: SubscriptionState): number | null {
  if (state.status === 'TRIALING') return state.trial?.endAt ?? null;
  return periodLine(state)?.periodEndAt ?? state.nextCycleAt;
}

/**
 * How long a cycle at `boundary` waits for late usage events: the usage grace when its usage
 * lines measured the period that ended, unless the subscription expires within it (expiry
 * comes first at a tie, and would leave the fixed lines of [boundary, ends_at) unbilled). Late
 * events are then billed on the last usage invoice, which re-measures the period before.
 */
function billingGraceMs(state: SubscriptionState, boundary: number): number {
  if (!measuresUsage(state)) return 0;
  const grace = usageGraceMs(state);
  return state.endsAt !== null && state.endsAt > boundary && state.endsAt <= boundary + grace ? 0 : grace;
}

export type DueKind = 'cancel' | 'expire' | 'startTrial' | 'bill';

/** The next thing the workflow does by itself, and when. Ties go in this order: cancel, expire, start, bill. */
export function nextDue(state: SubscriptionState): { kind: DueKind; at: number } | null {
  if (isTerminal(state.status)) return null;
  const candidates: { kind: DueKind; at: number | null }[] = [
    { kind: 'cancel', at: state.cancellation?.mode === 'PERIOD_END' ? state.cancellation.cancelAt : null },
    { kind: 'expire', at: state.endsAt },
    { kind: 'startTrial', at: state.status === 'CREATED' && state.trial?.type === 'FREE' ? state.startScheduledAt : null },
    {
      kind: 'bill',
      at:
        (['PENDING', 'TRIALING', 'ACTIVE'].includes(state.status) || (state.status === 'CREATED' && state.trial?.type !== 'FREE')) && state.nextCycleAt !== null
          ? state.nextCycleAt + billingGraceMs(state, state.nextCycleAt)
          : null,
    },
  ];
  let best: { kind: DueKind; at: number } | null = null;
  for (const candidate of candidates) {
    if (candidate.at !== null && (best === null || candidate.at < best.at)) best = { kind: candidate.kind, at: candidate.at };
  }
  return best;
}
