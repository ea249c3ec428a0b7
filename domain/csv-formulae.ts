/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is run as a formula when a spreadsheet opens the file. The
 * rule and the cure are papaparse's own `escapeFormulae: true` (a leading `'`, shown by no
 * spreadsheet); it is applied per column here because papaparse's option covers every text cell
 * of a file, and only free text needs it (docs/reports.md, "Cells").
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeFormula<Value>(value: Value): Value | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}
