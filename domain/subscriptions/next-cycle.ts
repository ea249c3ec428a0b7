import { isTerminal } from '../subscription-status';
import { billCycle, type PlannedInvoice } from './billing';
import { cancelScheduled } from './cancellation';
import { expire } from './expiry';
import { nextDue } from './schedule';
import type { Step, SubscriptionState } from './state';
import { startTrial } from './trial';

/** Due steps that can come before an invoice: a trial start only (a cancellation or expiry ends the subscription). */
const MAX_STEPS_BEFORE_BILLING = 3;

/**
 * The next invoice the subscription workflow will issue by itself if nothing changes, taken
 * with the very steps its timers take (nextDue, in its order of ties, then billCycle), each at
 * the instant it falls due. Null when none comes: a cancellation or expiry comes first, or the
 * status bills nothing until something else happens (REDEMPTION, UNPAID, an open-ended trial).
 */
export function nextCycle(state: SubscriptionState): { at: number; periodStart: number; step: Step; invoice: PlannedInvoice } | null {
  let current = state;
  for (let taken = 0; taken <= MAX_STEPS_BEFORE_BILLING; taken++) {
    if (isTerminal(current.status)) return null;
    const due = nextDue(current);
    if (!due) return null;
    switch (due.kind) {
      case 'bill':
        // A cycle billing usage is issued after the usage grace (due.at); its period starts at nextCycleAt.
        return { at: due.at, periodStart: current.nextCycleAt!, ...billCycle(current, current.nextCycleAt!, due.at) };
      case 'cancel':
        current = cancelScheduled(current, due.at).state;
        break;
      case 'expire':
        current = expire(current, due.at).state;
        break;
      case 'startTrial':
        current = startTrial(current, due.at).state;
        break;
    }
  }
  return null;
}
