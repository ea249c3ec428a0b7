/**
 * Bench only (`npm run bench:worker-memory`): the smallest workflow a worker can host, so a
 * bare worker has something to bundle and poll for and the platform worker a floor to compare with.
 */
export async function noopWorkflow(): Promise<void> {}
