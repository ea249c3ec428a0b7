/**
 * Section 1, item 5: UTC, trailing Z, six fractional digits. JavaScript dates carry
 * milliseconds, so the last three digits are always zero; PostgreSQL stores microseconds.
 */
export function formatDateTime(value: Date): string {
  return value.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function formatOptionalDateTime(value: Date | null | undefined): string | undefined {
  return value ? formatDateTime(value) : undefined;
}
