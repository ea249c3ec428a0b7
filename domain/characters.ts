/**
 * The characters of `value` as a merchant counts them: Unicode code points, as JSON Schema's
 * `maxLength` and PostgreSQL's `length()` count them, and as zod's string `max` does. A
 * character beyond the BMP (an emoji, many CJK extension characters) is one, not the two UTF-16
 * units `value.length` gives, so a limit stated in the OpenAPI document holds to the letter.
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
