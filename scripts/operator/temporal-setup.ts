import { setTimeout as delay } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import type { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { PLATFORM_SEARCH_ATTRIBUTES, type SearchAttributeKind } from '../../services/temporal/search-attributes';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
// gRPC status codes (grpc/status.h).
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;

export const KIND_TO_INDEXED: Record<SearchAttributeKind, temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  TEXT: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  INT: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DOUBLE: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  BOOL: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  DATETIME: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KEYWORD_LIST: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/** Workflow histories of closed workflows are kept this long unless the operator says otherwise. */
export const DEFAULT_RETENTION_DAYS = 7;
/** A namespace just registered is served once every frontend's namespace cache has refreshed (10 s by default). */
const NAMESPACE_SERVED_TIMEOUT_MS = 60_000;

export interface TemporalSetupResult {
  namespace: string;
  namespaceCreated: boolean;
  searchAttributesAdded: string[];
  searchAttributesPresent: string[];
}

/**
 * `npm run operator -- temporal-setup`: what the platform needs of a Temporal cluster reached with
 * the usual connection settings, created when missing and left alone when present, so it can run
 * before every deployment: the namespace, then the custom search attributes it uses. Waits until
 * the namespace is served, so a worker started right after finds it.
 */
export async function setUpTemporal(
  connection: Connection,
  namespace: string,
  options: { retentionDays?: number; searchAttributes?: Record<string, SearchAttributeKind> } = {},
): Promise<TemporalSetupResult> {
  const namespaceCreated = await ensureNamespace(connection, namespace, options.retentionDays ?? DEFAULT_RETENTION_DAYS);
  await waitUntilServed(connection, namespace);
  const { added, present } = await ensureSearchAttributes(connection, namespace, options.searchAttributes ?? PLATFORM_SEARCH_ATTRIBUTES);
  return { namespace, namespaceCreated, searchAttributesAdded: added, searchAttributesPresent: present };
}

async function ensureNamespace(connection: Connection, namespace: string, retentionDays: number): Promise<boolean> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return false;
  } catch (error) {
    if (grpcCode(error) !== NOT_FOUND) throw error;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
    });
    return true;
  } catch (error) {
    // Another operator (or a second deployment step) registered it meanwhile.
    if (grpcCode(error) === ALREADY_EXISTS) return false;
    throw error;
  }
}

async function waitUntilServed(connection: Connection, namespace: string): Promise<void> {
  const deadline = Date.now() + NAMESPACE_SERVED_TIMEOUT_MS;
  for (;;) {
    try {
      await connection.workflowService.countWorkflowExecutions({ namespace });
      return;
    } catch (error) {
      if (grpcCode(error) !== NOT_FOUND || Date.now() > deadline) throw error;
    }
    await delay(500);
  }
}

async function ensureSearchAttributes(
  connection: Connection,
  namespace: string,
  wanted: Record<string, SearchAttributeKind>,
): Promise<{ added: string[]; present: string[] }> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const existing = customAttributes ?? {};
  const present: string[] = [];
  const missing: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const [name, kind] of Object.entries(wanted)) {
    if (!(name in existing)) {
      missing[name] = KIND_TO_INDEXED[kind];
      continue;
    }
    if (existing[name] !== KIND_TO_INDEXED[kind]) {
      throw new Error(`search attribute ${name} exists in ${namespace} with another type (${IndexedValueType[existing[name]!]}); the platform needs ${kind}`);
    }
    present.push(name);
  }
  const added = Object.keys(missing);
  if (added.length > 0) await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
  return { added, present };
}

function grpcCode(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? (error as { code: number }).code : undefined;
}
