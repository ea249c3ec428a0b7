import type { Database } from '../prisma/client';
import { createApiKeySecretActivities } from './api-key-secrets';

export interface ActivityDependencies {
  db: Database;
}

/** Every activity, built from its dependencies so tests hand in the real database. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...createApiKeySecretActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
