import { isReadPermission } from '../../../domain/dashboard-roles';
import type { Permission } from '../../../domain/permissions';

/** The permissions of one resource (`invoices:…`), in the documented order. */
export interface PermissionGroup {
  resource: string;
  permissions: Permission[];
  /** Those that change nothing (domain/dashboard-roles.ts), what "read only" picks. */
  reads: Permission[];
}

/** What a set of permissions holds of one group, said in the key form's own words. */
export type GroupHolding = 'NONE' | 'READ_ONLY' | 'EVERYTHING' | 'SOME';

/** `invoices:get` → `invoices`. */
export function resourceOf(permission: string): string {
  return permission.slice(0, permission.indexOf(':'));
}

/** `invoices:get` → `get`. */
export function actionOf(permission: string): string {
  return permission.slice(permission.indexOf(':') + 1);
}

/** The permissions grouped by resource, groups in the order their first permission is documented. */
export function permissionGroups(permissions: readonly Permission[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const permission of permissions) {
    const resource = resourceOf(permission);
    const group = groups.get(resource) ?? { resource, permissions: [], reads: [] };
    group.permissions.push(permission);
    if (isReadPermission(permission)) group.reads.push(permission);
    groups.set(resource, group);
  }
  return [...groups.values()];
}

/** EVERYTHING wins over READ_ONLY for a group whose every permission is a read. */
export function groupHolding(group: PermissionGroup, held: readonly string[]): GroupHolding {
  const mine = group.permissions.filter((permission) => held.includes(permission));
  if (mine.length === 0) return 'NONE';
  if (mine.length === group.permissions.length) return 'EVERYTHING';
  if (mine.length === group.reads.length && mine.every((permission) => group.reads.includes(permission))) return 'READ_ONLY';
  return 'SOME';
}

/** The resource as a legend: `credit-notes` → `Credit notes`, `api-keys` → `API keys`. */
export function resourceLabel(resource: string): string {
  const words = resource.replace(/-/g, ' ').replace(/\bapi\b/, 'API');
  return words[0]!.toUpperCase() + words.slice(1);
}
