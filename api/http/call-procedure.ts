import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Context } from '../context';
import { appRouter } from '../router';

/**
 * Calls the procedure at `dotted` (`invoices.pay`) as tRPC's `createCaller` does (same options,
 * the router's middlewares, input parsing and output validation all inside the procedure),
 * without building a caller proxy per request and resolving the path through it. The /v2 routes
 * and the customer portal's (api/portal/) both go through it, so a portal change is the /v2 one.
 */
export function callProcedure(dotted: string, ctx: Context, input: unknown): Promise<unknown> {
  const procedure = ((appRouter as AnyRouter)._def.procedures as Record<string, AnyProcedure>)[dotted]!;
  return procedure({ path: dotted, getRawInput: async () => input, ctx, type: procedure._def.type, signal: undefined, batchIndex: 0 });
}
