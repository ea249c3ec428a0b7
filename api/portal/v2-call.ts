import type { ClientInfo } from '../../services/dashboard/actor';
import type { Principal } from '../auth/principal';
import { createContext, type ContextDependencies } from '../context';
import { callProcedure } from '../http/call-procedure';

export interface PortalCall {
  deps: ContextDependencies;
  requestId: string;
  client: ClientInfo;
  principal: Principal;
  /** The request's `Idempotency-Key`, if any; an operation that makes two calls derives one per call. */
  idempotencyKey?: string;
  /** Headers a /v2 operation set (Retry-After of a 503), passed on to the portal's answer. */
  responseHeaders: Record<string, string>;
}

/**
 * A /v2 operation (`invoices.pay`) as the portal's customer: the same procedure the API runs, so
 * validation, idempotency, events, webhooks and the audit entry are the API's own.
 */
export async function callV2<T>(call: PortalCall, dotted: string, input: unknown, idempotencyKey?: string): Promise<T> {
  const ctx = createContext(call.deps, {
    requestId: call.requestId,
    client: call.client,
    portalPrincipal: call.principal,
    idempotencyKey,
  });
  // The answer is the last call's: an earlier call's replay must not mark a fresh charge as one.
  delete call.responseHeaders['idempotent-replayed'];
  try {
    return (await callProcedure(dotted, ctx, input)) as T;
  } finally {
    Object.assign(call.responseHeaders, ctx.responseHeaders);
  }
}
