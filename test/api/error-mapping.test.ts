import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { toApiError } from '../../api/errors/envelope';

function zodErrorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a ZodError');
  return result.error;
}

describe('toApiError', () => {
  const issue = zodErrorOf(z.strictObject({ id: z.string() }), { id: 1 });

  it('answers a request that fails its input schema with VALIDATION and the field', () => {
    const error = toApiError(new TRPCError({ code: 'BAD_REQUEST', cause: issue }), { id: 1 });
    expect(error.code).toBe('VALIDATION');
    expect(JSON.stringify(error.context)).toContain('id');
  });

  it('answers an answer that fails its own output schema with INTERNAL, not VALIDATION (the server is at fault)', () => {
    const error = toApiError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: issue }), { id: 'x' });
    expect(error.code).toBe('INTERNAL');
    expect(error.context).toBeUndefined();
  });
});
