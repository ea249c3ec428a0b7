import type { MeterDefinition } from './meters';

/**
 * A group key (the JSON array of group-by values ingestion stored) as usage/summary shows it:
 * each group-by path with its value. The paths are those of the version that measured the
 * bucket's events: of the versions in force during [start, end), the newest with as many paths
 * as the key has values (a bucket a change falls in holds keys of both).
 */
export function groupLabels(versions: readonly MeterDefinition[], groupKey: string, start: number, end: number): Record<string, string | null> {
  const values = JSON.parse(groupKey) as Array<string | null>;
  const inForce = versions.filter((version, index) => version.effectiveFrom < end && (versions[index + 1]?.effectiveFrom ?? Infinity) > start);
  const measuredBy = inForce.reverse().find((version) => version.groupBy.length === values.length);
  const paths = measuredBy?.groupBy ?? values.map((_, index) => String(index));
  return Object.fromEntries(paths.map((path, index) => [path, values[index] ?? null]));
}
