/** The value types Temporal indexes a custom search attribute as. */
export type SearchAttributeKind = 'KEYWORD' | 'TEXT' | 'INT' | 'DOUBLE' | 'BOOL' | 'DATETIME' | 'KEYWORD_LIST';

/**
 * The custom search attributes the platform's workflows set or query, registered on a cluster by
 * `npm run operator -- temporal-setup` (docs/deployment.md). Empty today: the workflows read only
 * Temporal's built-in `TemporalScheduledStartTime` (workflows/settlement-scheduled-time.ts) and
 * find each other by workflow id (domain/workflow-ids.ts), which every cluster has. A workflow that
 * starts using one adds it here, and the next deployment's temporal-setup registers it.
 */
export const PLATFORM_SEARCH_ATTRIBUTES: Readonly<Record<string, SearchAttributeKind>> = {};
