import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../../api/openapi/document';

/**
 * An outside linter over the OpenAPI document (issue 40 item 22): `redocly lint` with the
 * recommended rules as errors (redocly.yaml), every example checked against its schema as a
 * strict client reads it.
 */

const ROOT = path.join(__dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules/.bin/redocly');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const described = (problem: Problem) => `${problem.severity} ${problem.ruleId} ${decodeURIComponent(problem.location[0]?.pointer ?? '')}: ${problem.message}`;

async function lint(document: unknown): Promise<Problem[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // redocly exits 1 when it finds an error; the report is on stdout either way.
    const { stdout } = await promisify(execFile)(REDOCLY, ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return (JSON.parse(stdout) as { problems: Problem[] }).problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const document = openApiDocument('http://localhost:3000');

describe('redocly lint of the OpenAPI document', () => {
  let problems: Problem[];

  beforeAll(async () => {
    problems = await lint(document);
  });

  it('finds no error: every example is valid against the schema beside it', () => {
    expect(problems.filter((problem) => problem.severity === 'error').map(described)).toEqual([]);
  });

  it('warns only where redocly.yaml says why', () => {
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    expect(warnings.filter((warning) => !['no-required-schema-properties-undefined', 'operation-2xx-response'].includes(warning.ruleId)).map(described)).toEqual([]);
    expect(warnings.filter((warning) => warning.ruleId === 'operation-2xx-response').map((warning) => decodeURIComponent(warning.location[0]!.pointer))).toEqual([
      '#/paths/~1v2~1reports~1download/post/responses',
    ]);
  });

  it('refuses an example its schema does not take', async () => {
    const broken = structuredClone(document) as any;
    const body = broken.paths['/v2/subscriptions/create'].post.requestBody.content['application/json'];
    body.example = { ...body.example, collection_method: 'CHARGE_AUTOMATICALLY', settings: { days_until_due: 5 }, surprise: true };
    const errors = (await lint(broken)).filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => problem.ruleId)).toEqual(expect.arrayContaining(['no-invalid-media-type-examples']));
    expect(errors.map((problem) => problem.message).join('\n')).toMatch(/surprise/);
  });
});
