import { z } from 'zod';
import { constraintsFromIssues, formatPath } from '../../api/errors/zod-constraints';

describe('zod issues to section 7.1 constraints', () => {
  const schema = z.strictObject({
    name: z.string(),
    items: z.array(z.strictObject({ amount: z.number().int().min(1), currency: z.enum(['EUR', 'USD']) })),
  });

  it('keys each failure by its field path with a constraint type', () => {
    const input = { items: [{ amount: 0, currency: 'XXX' }, { amount: 'x', currency: 'EUR' }], extra: 1 };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    const constraints = constraintsFromIssues(result.error!.issues, input);
    expect(constraints).toEqual({
      name: { type: 'REQUIRED', message: expect.any(String) },
      'items[0].amount': { type: 'MIN', message: expect.any(String) },
      'items[0].currency': { type: 'ENUM', message: expect.any(String) },
      'items[1].amount': { type: 'TYPE', message: expect.any(String) },
      extra: { type: 'UNKNOWN_FIELD', message: 'Unknown field `extra`.' },
    });
  });

  it('calls a missing enum field REQUIRED, not ENUM', () => {
    const input = { name: 'x', items: [{ amount: 1 }] };
    const result = schema.safeParse(input);
    expect(constraintsFromIssues(result.error!.issues, input)).toEqual({
      'items[0].currency': { type: 'REQUIRED', message: expect.any(String) },
    });
  });

  it('names the body itself when the whole payload is wrong', () => {
    expect(formatPath([])).toBe('body');
    const result = schema.safeParse([1]);
    expect(constraintsFromIssues(result.error!.issues, [1])).toEqual({ body: { type: 'TYPE', message: expect.any(String) } });
  });
});
