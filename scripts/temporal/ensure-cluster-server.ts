import { ensureTemporalServerBinary, ensureTemporalSqlTool, ensureTemporalUi } from './cluster-server';

/**
 * Builds the Temporal server, its SQL tool and the Web UI once (minutes on a cold Go cache), one
 * after the other on a small machine, before a test waits on them with its own timeout.
 */
(async () => {
  for (const ensure of [ensureTemporalServerBinary, ensureTemporalSqlTool, ensureTemporalUi]) console.log(`[temporal-server] ${await ensure()}`);
})().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
