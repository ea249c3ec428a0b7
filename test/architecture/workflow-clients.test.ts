import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Everything sent to a workflow from outside (start, signal, update, query, Schedule) goes
 * through one typed module (README.md, "Layout"). Every handle comes from `client.workflow`, so
 * a use of `<client>.workflow.…` or `<client>.schedule.…` anywhere else bypasses those modules;
 * so does an Update, or a signal or query by its definition, sent on a handle passed in.
 */

const ROOT = resolve(__dirname, '../..');
const SCANNED = ['api', 'services', 'activities', 'worker', 'scripts'];
/**
 * The benchmarks drive the platform from outside, as a client would; test:cluster only lists and
 * describes workflows to count failed and stuck ones; the docs screenshot only counts what the
 * operators' query finds before photographing the UI.
 */
const NOT_SCANNED = ['scripts/bench/', 'scripts/test-cluster.ts', 'scripts/docs/'];
const UPDATE_CALLS = ['executeUpdate', 'startUpdate', 'signalWithStart', 'executeUpdateWithStart', 'startUpdateWithStart'];
/** `signal` and `query` are common method names: a send names a definition (`…Signal`, `…Query`). */
const DEFINITION_CALLS: Record<string, RegExp> = { signal: /Signal$/, query: /Query$/ };
const CLIENT_MODULES = (file: string) => file.startsWith('services/workflows/') || file === 'services/subscriptions/workflow-client.ts';

/** `file:line <expression>` for every use of a Temporal client's workflow or schedule service, or send on a handle, in `source`. */
export function workflowClientUses(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['workflow', 'schedule'].includes(node.expression.name.text)
    ) {
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      found.push(`${file}:${line} ${node.getText(tree)}`);
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      const definition = DEFINITION_CALLS[method];
      if (UPDATE_CALLS.includes(method) || (definition && first && ts.isIdentifier(first) && definition.test(first.text))) {
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        found.push(`${file}:${line} ${node.expression.getText(tree)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

export function sendsOutsideClientModules(root: string): string[] {
  return SCANNED.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .filter((file) => !CLIENT_MODULES(file) && !NOT_SCANNED.some((prefix) => file.startsWith(prefix)))
      .sort()
      .flatMap((file) => workflowClientUses(file, readFileSync(join(root, file), 'utf8'))),
  );
}

describe('workflow clients', () => {
  it('finds a start, a handle and a Schedule reached through a client', () => {
    const source = [
      "await temporal.workflow.start('reportExportWorkflow', { taskQueue: 'q', workflowId: 'w' });",
      "await ctx.temporal.workflow.getHandle('w').signal('invoiceStatusChanged');",
      'await client.schedule.create(options);',
      'const first = schedule.trial;',
      'workflow.start();',
      'await handle.executeUpdate(cancelSubscriptionUpdate, options);',
      'await handle.signal(invoiceStatusChangedSignal);',
      'const state = await handle.query(subscriptionStateQuery);',
      "await pg.query('SELECT 1');",
      '.query(({ ctx }) => list(ctx));',
    ].join('\n');
    expect(workflowClientUses('api/x.ts', source)).toEqual([
      'api/x.ts:1 temporal.workflow.start',
      'api/x.ts:2 ctx.temporal.workflow.getHandle',
      'api/x.ts:3 client.schedule.create',
      'api/x.ts:6 handle.executeUpdate',
      'api/x.ts:7 handle.signal',
      'api/x.ts:8 handle.query',
    ]);
  });

  it('no start, signal, update, query or Schedule outside services/workflows/ and the subscription workflow client', () => {
    expect(sendsOutsideClientModules(ROOT)).toEqual([]);
  });
});
