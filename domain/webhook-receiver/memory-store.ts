import type { EventIdStore } from './store';

/**
 * An EventIdStore in this process's memory: enough for one receiver process and for tests. It
 * forgets everything on restart and is not shared between processes; a service running several
 * instances plugs in a shared store (a table with a unique key, Redis SET NX with EX) instead.
 */
export class MemoryEventIdStore implements EventIdStore {
  private readonly expiries = new Map<string, number>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async remember(eventId: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    this.sweep(now);
    const expiresAt = this.expiries.get(eventId);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.expiries.set(eventId, now + ttlMs);
    return true;
  }

  async forget(eventId: string): Promise<void> {
    this.expiries.delete(eventId);
  }

  /** How many ids are held (expired ones included until the next sweep). */
  get size(): number {
    return this.expiries.size;
  }

  /** At most once a minute: dropping expired ids is what keeps memory bounded by the TTL. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [id, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(id);
  }
}
