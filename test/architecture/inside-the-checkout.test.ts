import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A fresh clone anywhere passes `npm test` (issue 40 item 21): no test reads a file outside the
 * checkout, such as the spec in ../shared/spec beside it. What a test needs of the spec is a
 * fixture in the project (test/api-reference/fixtures/).
 */
const ROOT = path.join(__dirname, '../..');
const TESTS = path.join(ROOT, 'test');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

/** Relative paths written as string literals ('../x', "../../y"), resolved from the file that holds them. */
function pathsOutsideTheCheckout(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/['"`]((?:\.\.\/)+[^'"`\n]*)['"`]/g)]
    .map((match) => match[1]!)
    .filter((written) => {
      const resolved = path.resolve(path.dirname(file), written);
      return resolved !== ROOT && !resolved.startsWith(`${ROOT}${path.sep}`);
    });
}

describe('the tests stay inside the checkout', () => {
  it('names no path that leads out of it', () => {
    const leaving = files(TESTS)
      .filter((file) => /\.(ts|tsx|js|json)$/.test(file))
      .flatMap((file) => pathsOutsideTheCheckout(file).map((written) => `${path.relative(ROOT, file)}: ${written}`));
    expect(leaving).toEqual([]);
  });
});
