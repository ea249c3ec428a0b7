/**
 * WEBHOOK_ALLOW_LOOPBACK (docs/configuration.md): `true` or `1` lets webhook endpoints be on
 * the operator's own machine, for local development (`npm start` sets it). Read at each request
 * and each delivery attempt, by the API and the worker alike.
 */
export function loopbackAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOK_ALLOW_LOOPBACK === 'true' || env.WEBHOOK_ALLOW_LOOPBACK === '1';
}
