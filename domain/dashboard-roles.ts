import { PERMISSIONS, type Permission } from './permissions';

/** The dashboard's roles (docs/dashboard.md, "Roles"). */
export const DASHBOARD_ROLES = ['MERCHANT_ADMIN', 'DEVELOPER', 'SUPPORT'] as const;

export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export function isDashboardRole(value: string): value is DashboardRole {
  return (DASHBOARD_ROLES as readonly string[]).includes(value);
}

/**
 * A read changes nothing: `get`, `list` and their variants (`get-version`, `list-item`,
 * `list-deliveries`), `reports:download`, which reads a report already made, and
 * `usage:summary`, which reads usage already measured.
 */
export function isReadPermission(permission: Permission): boolean {
  const action = permission.slice(permission.indexOf(':') + 1);
  return /^(get|list)(-|$)/.test(action) || permission === 'reports:download' || permission === 'usage:summary';
}

const DEVELOPER_RESOURCES: ReadonlySet<string> = new Set(['api-keys', 'webhooks']);

/**
 * The /v2 permissions of a role: an admin holds all; a developer manages keys and webhooks and
 * reads everything; support reads. Money (void, refund, pay) and people stay with the admin.
 */
export function permissionsOfRole(role: DashboardRole): Permission[] {
  switch (role) {
    case 'MERCHANT_ADMIN':
      return [...PERMISSIONS];
    case 'DEVELOPER':
      return PERMISSIONS.filter((p) => DEVELOPER_RESOURCES.has(p.slice(0, p.indexOf(':'))) || isReadPermission(p));
    case 'SUPPORT':
      return PERMISSIONS.filter(isReadPermission);
  }
}

/** Only an admin manages the account's people and reads its audit log. */
export function managesPeople(role: DashboardRole): boolean {
  return role === 'MERCHANT_ADMIN';
}
