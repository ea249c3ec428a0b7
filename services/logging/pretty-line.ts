const LEVEL_WIDTH = 5;
/** Fields every line has, shown in the line's head rather than repeated as key=value. */
const HEAD_FIELDS = new Set(['time', 'level', 'name', 'msg', 'pid', 'hostname']);

function valueText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/**
 * One JSON log line as one readable line, `10:00:00.123 INFO  api request completed request_id=req_… status=200`,
 * for a terminal under `npm start`. A nested error keeps its stack on the following lines.
 */
export function prettyLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine);
  } catch {
    return jsonLine;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = String(entry.level ?? '').toUpperCase().padEnd(LEVEL_WIDTH);
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD_FIELDS.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${valueText(value)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  return `${[time, level, entry.name, entry.msg, ...fields].filter((part) => part !== undefined && part !== '').join(' ')}${stack}\n`;
}
