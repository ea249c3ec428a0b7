import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SchemathesisSummary } from '../schemathesis/summary';
import type { ClusterSummary } from './cluster-summary';

/**
 * The last lines of `npm test` and of `.ci/run`: what the run's test steps counted, read from the
 * files they wrote (jest's `--json` results, the schemathesis summary), so the end of a long log
 * says how many tests ran and passed. A step whose file is missing did not run, and says so.
 */
const ARTIFACTS = resolve(__dirname, '../../test-artifacts');

interface JestResults {
  success: boolean;
  numTotalTestSuites: number;
  numPassedTestSuites: number;
  numFailedTestSuites: number;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const jest = await readJson<JestResults>(join(ARTIFACTS, 'jest/results.json'));
  const schemathesis = await readJson<SchemathesisSummary>(join(ARTIFACTS, 'schemathesis/summary.json'));
  const cluster = await readJson<ClusterSummary>(join(ARTIFACTS, 'cluster/summary.json'));
  console.log('[recap] test results of this run');
  if (jest) {
    console.log(`Test Suites: ${jest.numFailedTestSuites ? `${jest.numFailedTestSuites} failed, ` : ''}${jest.numPassedTestSuites} passed, ${jest.numTotalTestSuites} total`);
    console.log(
      `Tests:       ${jest.numFailedTests ? `${jest.numFailedTests} failed, ` : ''}${jest.numPendingTests ? `${jest.numPendingTests} skipped, ` : ''}${jest.numPassedTests} passed, ${jest.numTotalTests} total`,
    );
  } else {
    console.log('jest: no results (test-artifacts/jest/results.json is missing)');
  }
  if (schemathesis) {
    console.log(
      `schemathesis: ${schemathesis.failed} failed, ${schemathesis.passed} passed, ${schemathesis.generated} generated cases, ${schemathesis.operationsTested} operations (exit ${schemathesis.exitCode})`,
    );
  } else {
    console.log('schemathesis: no results (not run: it runs only in a full `npm test`)');
  }
  if (cluster) {
    // The fault counts of the cluster run (Stripe's and usage ingestion's among them), each of which must be 0.
    console.log(`test:cluster: ${cluster.passed ? 'PASSED' : 'FAILED'} in ${cluster.seconds} s; Stripe route: ${cluster.stripeTraffic}`);
    console.log(`  usage ingestion: ${cluster.usageTraffic}`);
    for (const [name, value] of Object.entries(cluster.mustBeZero)) console.log(`  ${name}: ${value}`);
  } else {
    console.log('test:cluster: no results (not run: `.ci/run` runs it after `npm test`)');
  }
}

void main();
