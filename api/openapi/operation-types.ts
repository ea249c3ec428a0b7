import type { inferRouterInputs } from '@trpc/server';
import type { OperationErrorCode } from '../../domain/errors';
import type { AppRouter } from '../router';

/**
 * The types each resource group's `error-codes.ts` and `request-examples.ts` are checked against.
 * They live apart from the files that gather those declarations (operation-errors.ts,
 * request-examples.ts), so a declaration does not import what imports it.
 */
export type Operations = inferRouterInputs<AppRouter>;

/**
 * An operation's 422 codes, each with when it answers it. IDEMPOTENCY_KEY_REUSED is not declared
 * per operation: every mutation answers it (`IDEMPOTENCY_KEY_REUSED_WHEN`).
 */
export type ErrorCodeDeclaration = Partial<Record<Exclude<OperationErrorCode, 'IDEMPOTENCY_KEY_REUSED'>, string>>;

/** One resource group's operations, by action, with their 422 codes; an operation answering none is left out. */
export type ResourceErrorCodes<R extends keyof Operations> = { [A in keyof Operations[R]]?: ErrorCodeDeclaration };

/**
 * A resource group's request example for every one of its operations, typed by the operation's
 * input: "Try it out" starts from it. A test parses each with the operation's zod schema.
 */
export type ResourceRequestExamples<R extends keyof Operations> = { [A in keyof Operations[R]]-?: Operations[R][A] };

/** One operation's request, for an example two operations share. */
export type RequestExample<R extends keyof Operations, A extends keyof Operations[R]> = Operations[R][A];
