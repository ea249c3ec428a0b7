import { appRouter } from '../router';
import { procedureTable } from '../http/procedure-table';
import { IDEMPOTENCY_KEY_REUSED_WHEN, operationErrorCodes } from './operation-errors';

/**
 * docs/errors.md's "422 codes by operation" table, from the same declarations as the OpenAPI
 * document. Operations of one resource group that answer a code for the same reason share a row.
 */
export function errorCodeTable(): string {
  const rows = new Map<string, { resources: string; actions: string[]; code: string; when: string }>();
  for (const dotted of procedureTable(appRouter).values()) {
    const [resources, action] = dotted.split('.') as [string, string];
    for (const [code, when] of operationErrorCodes(dotted, false)) {
      const key = JSON.stringify([resources, code, when]);
      const row = rows.get(key) ?? { resources, actions: [], code, when };
      row.actions.push(action);
      rows.set(key, row);
    }
  }
  return [
    '| Operation | code | When |',
    '|---|---|---|',
    `| any mutating operation | \`IDEMPOTENCY_KEY_REUSED\` | ${IDEMPOTENCY_KEY_REUSED_WHEN} |`,
    ...[...rows.values()].map((row) => `| ${row.resources}/${row.actions.join(', ')} | \`${row.code}\` | ${row.when} |`),
  ].join('\n');
}
