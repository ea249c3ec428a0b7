import type { FastifyInstance } from 'fastify';

/** A request that takes longer than this is logged at `warn`, which is the level `npm start` logs at. */
export const DEFAULT_SLOW_REQUEST_MS = 5_000;

/** SLOW_REQUEST_MS from the environment: a positive number of milliseconds, else the default. */
export function slowRequestSetting(value: string | undefined): number {
  const parsed = Number(value);
  return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : DEFAULT_SLOW_REQUEST_MS;
}

/**
 * Logs every request slower than `thresholdMs` with its path, status and time: request logs are
 * `info`, below what a production process writes, so without this line an operator (or a test run
 * whose client gave up waiting) learns only that something was slow, not what.
 */
export function registerSlowRequestLog(app: FastifyInstance, thresholdMs: number): void {
  app.addHook('onResponse', async (request, reply) => {
    if (reply.elapsedTime < thresholdMs) return;
    request.log.warn({ path: request.url.split('?')[0], status: reply.statusCode, response_time_ms: Math.round(reply.elapsedTime) }, 'slow request');
  });
}
