import { schemaDrift } from '../../scripts/db/migrations';

// Replaying the migrations takes a few seconds, more when a throwaway server must be started.
const TIMEOUT_MS = 60_000;

describe('prisma/migrations', () => {
  it(
    'match schema.prisma (run `npm run db:migrate -- create <name>` after changing the schema)',
    async () => {
      // Without the global setup's server, schemaDrift starts a throwaway one itself.
      await expect(schemaDrift(process.env.TEST_ADMIN_DATABASE_URL)).resolves.toBe('');
    },
    TIMEOUT_MS,
  );
});
