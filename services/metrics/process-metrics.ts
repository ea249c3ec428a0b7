import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's process metrics (CPU, memory, event-loop lag, GC) in a registry of their own,
 * set up once per process: each setup starts its own event-loop and GC observers, and a process
 * running several servers (npm start, the tests) describes one process.
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
