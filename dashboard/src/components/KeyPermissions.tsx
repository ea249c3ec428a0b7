import { PERMISSIONS } from '../../../domain/permissions';
import { actionOf, groupHolding, permissionGroups, resourceLabel } from './permissionGroups';

/** An existing key's permissions grouped as the key form groups them: `Invoices: read only (get, list)`. */
export function KeyPermissions({ permissions }: { permissions: readonly string[] }) {
  if (PERMISSIONS.every((permission) => permissions.includes(permission))) return <>All permissions</>;
  const held = permissionGroups(PERMISSIONS).flatMap((group) => {
    const holding = groupHolding(group, permissions);
    if (holding === 'NONE') return [];
    const actions = group.permissions.filter((permission) => permissions.includes(permission)).map(actionOf).join(', ');
    const words = holding === 'EVERYTHING' ? `everything (${actions})` : holding === 'READ_ONLY' ? `read only (${actions})` : actions;
    return [{ resource: group.resource, text: `${resourceLabel(group.resource)}: ${words}` }];
  });
  return (
    <ul className="permissions">
      {held.map((group) => (
        <li key={group.resource}>{group.text}</li>
      ))}
    </ul>
  );
}
