import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

describe('typed client', () => {
  it('client/schema.d.ts is what npm run client:generate writes from the current document', () => {
    const committed = readFileSync(join(ROOT, 'client/schema.d.ts'), 'utf8');
    const generated = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/client/generate.ts', '--stdout'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // On a difference: run `npm run client:generate` and commit client/schema.d.ts.
    expect(committed).toBe(generated);
  });
});
