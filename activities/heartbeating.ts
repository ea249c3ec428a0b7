import { Context } from '@temporalio/activity';
import { CHARGE_HEARTBEAT_EVERY_MS } from '../domain/charge-heartbeats';

/**
 * Runs `work` in the current activity, heartbeating on a timer until it settles: the work itself
 * (a provider call, a transaction) has no natural point to heartbeat from, and what the heartbeat
 * proves is only that this worker is alive. A local activity has no heartbeat: its workflow
 * task, which the worker keeps alive while it runs, is what times out when the worker dies.
 */
export async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  const timer = setInterval(() => context.heartbeat(), CHARGE_HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
