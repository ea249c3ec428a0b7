import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's process metrics (CPU, memory, event-loop lag, GC) in a registry of their own,
 * set up once per process: each setup starts its own event-loop and GC observers, and a process
 * running several servers (npm start) describes one process. Only entry points call this
 * (api/main.ts, worker/main.ts, scripts/start.ts) and hand the registry to ApiMetrics or
 * WorkerMetrics: under jest every test file has its own module state, so a call made when a
 * server was built ran once per file, and its observers kept each file's modules alive (about
 * 34 MB a file; docs/benchmarks.md, "What a test file leaves behind").
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
