import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The layer rules of README.md ("Layout"): api → services → {domain, prisma}, activities →
 * services, workflows → domain and types. Read from the sources' import syntax, so an edit that
 * reaches upward fails here rather than in review.
 */

const ROOT = resolve(__dirname, '../..');
const LAYERS = ['api', 'services', 'domain', 'activities', 'workflows', 'worker', 'prisma'] as const;

interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

/** Every module a source names: static import/export … from, bare import, import(), require(), import('…') types. */
export function importsOf(fileName: string, source: string): ImportRef[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly || (clause.name === undefined && named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const typeOnly = node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Where a specifier points: a repository path for a relative one, the package name otherwise. */
function target(file: string, specifier: string): { path: string; folder: string | undefined } {
  if (!specifier.startsWith('.')) return { path: specifier, folder: undefined };
  const path = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split('\\').join('/');
  return { path, folder: path.split('/')[0] };
}

type Rule = (to: { path: string; folder: string | undefined }, ref: ImportRef) => boolean;

const PROJECT_FOLDERS = ['api', 'services', 'domain', 'activities', 'workflows', 'worker', 'prisma', 'generated', 'scripts', 'test'];

/** Whether an import is allowed, per importing layer. */
const RULES: Record<(typeof LAYERS)[number], Rule> = {
  domain: (to) => !['api', 'services', 'activities', 'workflows', 'worker', 'prisma'].includes(to.folder ?? ''),
  services: (to, ref) =>
    to.folder === undefined ||
    ['services', 'domain', 'prisma', 'generated'].includes(to.folder) ||
    (to.folder === 'workflows' && ref.typeOnly) ||
    // A workflow's signal, query and update definitions are its public contract, the values a
    // typed client sends; they hold no workflow code.
    (to.folder === 'workflows' && /^workflows\/[\w-]+-messages$/.test(to.path)),
  activities: (to) => to.folder !== 'api',
  workflows: (to, ref) =>
    ref.typeOnly ||
    to.folder === 'domain' ||
    to.folder === 'workflows' ||
    // the workflow SDK: both packages are bundled into the deterministic workflow sandbox
    to.path === '@temporalio/workflow' ||
    to.path === '@temporalio/common',
  worker: (to) => to.folder !== 'api',
  // What a route shares with the worker (file storage, for one) is a service, so that serving
  // HTTP never loads the worker's adapters.
  api: (to) => !['activities', 'worker'].includes(to.folder ?? ''),
  prisma: (to) => !['api', 'services', 'activities', 'workflows', 'worker'].includes(to.folder ?? ''),
};

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

function violations(): string[] {
  const found: string[] = [];
  for (const layer of LAYERS) {
    for (const file of sourcesUnder(layer)) {
      for (const ref of importsOf(file, readFileSync(join(ROOT, file), 'utf8'))) {
        const to = target(file, ref.specifier);
        if (to.folder !== undefined && !PROJECT_FOLDERS.includes(to.folder)) {
          found.push(`${file} -> ${ref.specifier} (outside the project's folders)`);
        } else if (!RULES[layer](to, ref)) {
          found.push(`${file} -> ${to.path}${ref.typeOnly ? ' (type)' : ''}`);
        }
      }
    }
  }
  return found;
}

describe('import direction', () => {
  it('reads every import form, telling type-only ones apart', () => {
    const source = [
      "import { a } from '../api/a';",
      "import type { B } from '../api/b';",
      "import { type C, type D } from '../api/c';",
      "import { type E, f } from '../api/e';",
      "import '../api/side-effect';",
      "export { g } from '../api/g';",
      "export type { H } from '../api/h';",
      "export * from '../api/star';",
      "const i = await import('../api/i');",
      "const j = require('../api/j');",
      "let k: import('../api/k').K;",
      "import l = require('../api/l');",
    ].join('\n');
    expect(importsOf('services/x.ts', source)).toEqual([
      { specifier: '../api/a', typeOnly: false },
      { specifier: '../api/b', typeOnly: true },
      { specifier: '../api/c', typeOnly: true },
      { specifier: '../api/e', typeOnly: false },
      { specifier: '../api/side-effect', typeOnly: false },
      { specifier: '../api/g', typeOnly: false },
      { specifier: '../api/h', typeOnly: true },
      { specifier: '../api/star', typeOnly: false },
      { specifier: '../api/i', typeOnly: false },
      { specifier: '../api/j', typeOnly: false },
      { specifier: '../api/k', typeOnly: true },
      { specifier: '../api/l', typeOnly: false },
    ]);
  });

  it('no layer imports against the direction', () => {
    expect(violations()).toEqual([]);
  });
});
