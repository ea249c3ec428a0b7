import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/benchmarks.md opens with the current figures, each row linking to the run it rests on,
 * and runs no figure rests on go (issue 45). A heading reworded or a run removed must leave no
 * row, and no other doc, pointing at nothing: GitHub renders a dead `#anchor` as a link that
 * goes nowhere, silently.
 */
const ROOT = path.join(__dirname, '../..');
const DOCS = path.join(ROOT, 'docs');
const BENCHMARKS = path.join(DOCS, 'benchmarks.md');

interface Heading {
  line: number;
  level: number;
  text: string;
  slug: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Headings outside fenced code, with GitHub's `-1`, `-2` suffixes on repeated slugs. */
function headings(lines: string[]): Heading[] {
  const seen = new Map<string, number>();
  let fenced = false;
  const found: Heading[] = [];
  lines.forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    const match = fenced ? null : /^(#{1,6}) (.+?)\s*$/.exec(line);
    if (!match) return;
    const base = slugOf(match[2]!);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    found.push({ line: index, level: match[1]!.length, text: match[2]!, slug: repeats === 0 ? base : `${base}-${repeats}` });
  });
  return found;
}

/** The line range of a `## ` section, up to the next `## `. */
function sectionRange(lines: string[], title: string): [number, number] {
  const start = lines.indexOf(`## ${title}`);
  if (start === -1) return [0, 0];
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return [start + 1, end === -1 ? lines.length : end];
}

function anchorTargets(text: string): string[] {
  return [...text.matchAll(/\]\(#([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe('docs/benchmarks.md', () => {
  const lines = readFileSync(BENCHMARKS, 'utf8').split('\n');
  const all = headings(lines);
  const within = (title: string) => {
    const [start, end] = sectionRange(lines, title);
    return all.filter((heading) => heading.line >= start && heading.line < end);
  };
  const slugs = new Set(all.map((heading) => heading.slug));
  const runs = within('Runs')
    .filter((heading) => heading.level === 3)
    .map((heading) => heading.slug);
  const [figuresStart, figuresEnd] = sectionRange(lines, 'Current figures');
  const rows = lines.slice(figuresStart, figuresEnd).filter((line) => line.startsWith('| ') && !line.startsWith('| bench |'));

  it('every link from docs/ or the README to an anchor in it names a heading it has', () => {
    const files = [path.join(ROOT, 'README.md'), ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => path.join(DOCS, name))];
    const dead = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)]
        .filter((match) => path.resolve(path.dirname(file), match[1]! || path.basename(file)) === BENCHMARKS)
        .filter((match) => !slugs.has(match[2]!))
        .map((match) => `${path.relative(ROOT, file)}: #${match[2]}`),
    );
    expect(dead).toEqual([]);
  });

  it('links every row of the current figures to a run under "Runs"', () => {
    expect(rows.length).toBeGreaterThan(0);
    const unlinked = rows.filter((row) => !anchorTargets(row).some((target) => runs.includes(target)));
    expect(unlinked).toEqual([]);
  });

  it('keeps only runs that a current figure rests on', () => {
    const linked = new Set(rows.flatMap(anchorTargets));
    expect(runs.filter((run) => !linked.has(run))).toEqual([]);
  });

  it('describes every bench script under "The benchmarks"', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts)
      .filter((name) => name.startsWith('bench:'));
    const described = within('The benchmarks').map((heading) => heading.text);
    const missing = scripts.filter((name) => !described.some((text) => text.startsWith(`\`npm run ${name}`)));
    expect(missing).toEqual([]);
  });
});
