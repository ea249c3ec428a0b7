import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../support/database';

const run = promisify(execFile);
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('a pooled connection PostgreSQL drops while it is checked out', () => {
  it('fails its next statement and leaves the process and the pool working', async () => {
    const fixture = join(__dirname, 'fixtures/dropped-checked-out-connection.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', fixture, database.url], { timeout: 60_000 });
    const outcome = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(outcome.survived).toBe(true);
    expect(outcome.failure).not.toBe('none');
    expect(outcome.after).toBe(1);
  }, 90_000);
});

describe('an idle pooled connection PostgreSQL drops, on a client Prisma itself never connected', () => {
  it('leaves the process working, the next statement on a new connection, and $disconnect ends the pool', async () => {
    const fixture = join(__dirname, 'fixtures/dropped-idle-connection.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', fixture, database.url], { timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ survived: true, reconnected: true, ended: true });
  }, 90_000);
});
