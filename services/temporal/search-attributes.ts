import { WORKFLOW_SEARCH_ATTRIBUTE_KEYS } from '../../domain/workflow-search-attributes';

/** The value types Temporal indexes a custom search attribute as. */
export type SearchAttributeKind = 'KEYWORD' | 'TEXT' | 'INT' | 'DOUBLE' | 'BOOL' | 'DATETIME' | 'KEYWORD_LIST';

/**
 * The custom search attributes the platform's workflows set (domain/workflow-search-attributes.ts),
 * registered on a cluster by `npm run operator -- temporal-setup` (docs/deployment.md), on the dev
 * server by `npm start` and on the test servers by test/support/temporal.ts. A workflow start
 * naming one the namespace does not know fails, so each deployment runs temporal-setup first.
 */
export const PLATFORM_SEARCH_ATTRIBUTES: Readonly<Record<string, SearchAttributeKind>> = Object.fromEntries(
  WORKFLOW_SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, key.type]),
);
