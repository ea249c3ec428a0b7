import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureTestServerExecutable } from '../../scripts/temporal/test-server';
import { KIND_TO_INDEXED } from '../../scripts/operator/temporal-setup';
import { PLATFORM_SEARCH_ATTRIBUTES } from '../../services/temporal/search-attributes';

/**
 * A time-skipping Temporal environment backed by the Java test server from Maven Central
 * (the SDK's default download is unreachable here). Call `teardown()` when done.
 *
 * No `--enable-time-skipping`: like the SDK's own download, the server must start with time
 * skipping locked, because the SDK unlocks it only while a test awaits a workflow result or calls
 * `env.sleep()`. Started unlocked, the server skips ahead on its own whenever nothing is
 * pending (e.g. while the worker is still starting) and the sleeper test fails with a timeout.
 */
export async function createTestWorkflowEnvironment(): Promise<TestWorkflowEnvironment> {
  const path = await ensureTestServerExecutable();
  // The SDK gives the server a fixed five seconds to listen; a JVM starting on a loaded machine
  // can miss that several times in a row (seen with three), so a failed start is tried again
  // before the test file gives up.
  for (let attempt = 1; ; attempt++) {
    let env: TestWorkflowEnvironment;
    try {
      env = await TestWorkflowEnvironment.createTimeSkipping({
        server: { executable: { type: 'existing-path', path } },
      });
    } catch (error) {
      if (attempt === 6) throw error;
      continue;
    }
    // The test server refuses a start naming a search attribute it was not told of. It has no
    // ListSearchAttributes, and a new server knows none: all are added.
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(Object.entries(PLATFORM_SEARCH_ATTRIBUTES).map(([name, kind]) => [name, KIND_TO_INDEXED[kind]])),
    });
    return env;
  }
}
