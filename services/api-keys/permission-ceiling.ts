import { ApiError } from '../../domain/errors';

/** The API key acting: its account and every permission it holds. */
export interface Caller {
  accountId: string;
  permissions: ReadonlySet<string>;
  /** The dashboard user, when a session calls: the key records who saw its new secret. */
  user?: { userId: string };
}

/**
 * A key acts on other keys only within its own permissions: it cannot grant what it does not
 * hold (create), nor take over a key that holds more (rotate hands out that key's new secret).
 * 403 PERMISSION_DENIED with `context.permissions`, the ones beyond the caller's.
 */
export function requireWithinCallerPermissions(caller: Caller, permissions: readonly string[], message: string): void {
  const beyond = permissions.filter((p) => !caller.permissions.has(p));
  if (beyond.length > 0) throw new ApiError('PERMISSION_DENIED', message, { permissions: beyond });
}
