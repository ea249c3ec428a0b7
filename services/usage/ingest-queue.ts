import type { Database } from '../../prisma/client';
import { storeBatches, type StoredOutcomes, type TimelyBatch } from './ingest-store';

/**
 * At most two ingestion statements per account at a time in this process, and the batches that
 * wait meanwhile stored together by the next one (docs/usage.md, "Ingestion"). Batches of one
 * account upsert the same roll-up rows (the current minute and hour of its customers): run side
 * by side they only queue on each other's row locks while holding their own. bench:usage measured
 * PostgreSQL's CPU per 1,000 events at 101 ms with a statement per request (8 at once) and half
 * the events/s; at 33 ms with one statement in flight, at 39 ms with two, which took 20 % more
 * events/s (22,000 against 18,200, alternating runs): the second is measured and inserts its
 * events while the first waits for its commit to be flushed. Stored together, a roll-up row
 * several batches share is written once for all of them.
 */

/** The most events one statement stores: about 150 ms of PostgreSQL's time. */
export const MAX_EVENTS_PER_STATEMENT = 5_000;

interface Waiting {
  db: Database;
  channels: readonly string[] | null;
  channelsKey: string;
  batch: TimelyBatch;
  ids: Set<string>;
  resolve(outcomes: StoredOutcomes): void;
  reject(error: unknown): void;
}

const IN_FLIGHT = 2;

interface AccountQueue {
  waiting: Waiting[];
  /** Statements of the account in flight. */
  running: number;
}

/** Each account's batches waiting for a statement: present while one is in flight. */
const queues = new Map<string, AccountQueue>();

/** Stores the batch in its account's turn, possibly with others of the account waiting with it. */
export function storeInTurn(db: Database, accountId: string, channels: readonly string[] | null, batch: TimelyBatch): Promise<StoredOutcomes> {
  return new Promise((resolve, reject) => {
    const waiting: Waiting = {
      db,
      channels,
      channelsKey: channels === null ? '*' : JSON.stringify([...channels].sort()),
      batch,
      ids: new Set(batch.timely.map((i) => batch.events[i]!.eventId)),
      resolve,
      reject,
    };
    let queue = queues.get(accountId);
    if (!queue) {
      queue = { waiting: [], running: 0 };
      queues.set(accountId, queue);
    }
    queue.waiting.push(waiting);
    if (queue.running < IN_FLIGHT) void drain(accountId, queue);
  });
}

async function drain(accountId: string, queue: AccountQueue): Promise<void> {
  queue.running++;
  while (queue.waiting.length > 0) {
    const group = takeGroup(queue.waiting);
    try {
      const outcomes = await storeBatches(group[0]!.db, accountId, group[0]!.channels, group.map((w) => w.batch));
      group.forEach((waiting, k) => waiting.resolve(outcomes[k]!));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        continue;
      }
      // Nothing of the group was stored: each batch is tried alone, so a batch that cannot be
      // stored fails by itself and not every batch that happened to wait beside it.
      for (const waiting of group) {
        await storeBatches(waiting.db, accountId, waiting.channels, [waiting.batch]).then(
          ([outcomes]) => waiting.resolve(outcomes!),
          (alone: unknown) => waiting.reject(alone),
        );
      }
    }
  }
  // Nothing waits once a loop ends: a batch that came meanwhile was taken by it.
  if (--queue.running === 0) queues.delete(accountId);
}

/**
 * The first batch waiting and those after it that can share its statement: the same database and
 * channels, no event id in common with the group or with a batch passed over (the second copy of
 * an id is a DUPLICATE of the first, and the first is the one queued first), within the size
 * bound. The others keep their order.
 */
function takeGroup(queue: Waiting[]): Waiting[] {
  const first = queue.shift()!;
  const group = [first];
  const ids = new Set(first.ids);
  /** Ids of batches left waiting: a later batch sharing one stays behind them. */
  const passedOver = new Set<string>();
  let size = first.batch.timely.length;
  for (let k = 0; k < queue.length; ) {
    const next = queue[k]!;
    const fits =
      next.db === first.db &&
      next.channelsKey === first.channelsKey &&
      size + next.batch.timely.length <= MAX_EVENTS_PER_STATEMENT &&
      ![...next.ids].some((id) => ids.has(id) || passedOver.has(id));
    if (!fits) {
      for (const id of next.ids) passedOver.add(id);
      k++;
      continue;
    }
    queue.splice(k, 1);
    group.push(next);
    size += next.batch.timely.length;
    for (const id of next.ids) ids.add(id);
  }
  return group;
}
