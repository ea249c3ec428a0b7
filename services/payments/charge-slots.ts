import { poolSizeOf, type Database } from '../../prisma/client';

/**
 * Connections one charge holds at its peak: the transaction that keeps the payment's advisory
 * lock, plus the two reads `run` makes in parallel (or the provider's own transaction).
 */
export const CONNECTIONS_PER_CHARGE = 3;

/**
 * How many charges may run at once in this process. Each holds its lock transaction's
 * connection while it needs more from the same pool: with more charges than the pool can serve
 * at their peak, every connection is held by a lock transaction waiting for another, and all
 * of them stall until the acquire timeout. Excess charges queue here instead.
 */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

const slotsByDatabase = new WeakMap<Database, Slots>();

export function chargeSlots(db: Database): Slots {
  let slots = slotsByDatabase.get(db);
  if (!slots) {
    slots = new Slots(Math.max(1, Math.floor((poolSizeOf(db) - 1) / CONNECTIONS_PER_CHARGE)));
    slotsByDatabase.set(db, slots);
  }
  return slots;
}
