import { ApiError } from '../../domain/errors';
import type { Principal } from '../auth/principal';

/**
 * A key acts on other keys only within its own permissions: it cannot grant what it does not
 * hold (create), nor take over a key that holds more (rotate hands out that key's new secret).
 * 403 PERMISSION_DENIED with `context.permissions`, the ones beyond the caller's.
 */
export function requireWithinCallerPermissions(principal: Principal, permissions: readonly string[], message: string): void {
  const beyond = permissions.filter((p) => !principal.permissions.has(p));
  if (beyond.length > 0) throw new ApiError('PERMISSION_DENIED', message, { permissions: beyond });
}
