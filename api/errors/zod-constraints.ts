import type { z } from 'zod';
import type { Constraint, ConstraintType, Constraints } from '../../domain/errors';

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

/** `filters.name.value`, `line_items[2].amount`: the field path as a merchant writes it. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || 'body';
}

function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function typeOf(issue: Issue, input: unknown): ConstraintType {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'REQUIRED' : 'TYPE';
    case 'too_small':
      return 'MIN';
    case 'too_big':
      return 'MAX';
    case 'invalid_value':
      return valueAt(input, issue.path) === undefined ? 'REQUIRED' : 'ENUM';
    case 'invalid_format':
    case 'not_multiple_of':
      return 'FORMAT';
    case 'unrecognized_keys':
      return 'UNKNOWN_FIELD';
    case 'custom': {
      const declared = (issue.params as { type?: ConstraintType } | undefined)?.type;
      return declared ?? 'INVALID';
    }
    default:
      return 'INVALID';
  }
}

function entriesOf(issue: Issue, input: unknown): Array<[string, Constraint]> {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => [
      formatPath([...issue.path, key]),
      { type: 'UNKNOWN_FIELD', message: `Unknown field \`${key}\`.` },
    ]);
  }
  if (issue.code === 'invalid_union') {
    const discriminator = (issue as { discriminator?: string }).discriminator;
    if (discriminator) {
      // Zod puts the discriminator at the end of the path already.
      const missing = valueAt(input, issue.path) === undefined;
      return [[formatPath(issue.path), { type: missing ? 'REQUIRED' : 'ENUM', message: issue.message }]];
    }
    // Report the branch that got furthest: its first issue is the most specific complaint.
    const branches = issue.errors.filter((branch) => branch.length > 0);
    const deepest = branches.sort((a, b) => b[0]!.path.length - a[0]!.path.length)[0];
    if (deepest) return entriesOf({ ...deepest[0]!, path: [...issue.path, ...deepest[0]!.path] } as Issue, input);
  }
  return [[formatPath(issue.path), { type: typeOf(issue, input), message: issue.message }]];
}

/** Section 7.1: one entry per offending field, keyed by its path; the first complaint wins. */
export function constraintsFromIssues(issues: readonly Issue[], input: unknown): Constraints {
  const constraints: Constraints = {};
  for (const issue of issues) {
    for (const [path, constraint] of entriesOf(issue, input)) {
      constraints[path] ??= constraint;
    }
  }
  return constraints;
}
