/** SHUTDOWN_TIMEOUT_MS: how long a stopping API process lets in-flight requests finish (docs/deployment.md). */
export function shutdownTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.SHUTDOWN_TIMEOUT_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : 25_000;
}
