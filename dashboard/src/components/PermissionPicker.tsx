import type { Permission } from '../../../domain/permissions';
import { groupHolding, permissionGroups, resourceLabel, type GroupHolding, type PermissionGroup } from './permissionGroups';

const HOLDING_WORDS: Record<Exclude<GroupHolding, 'SOME'>, string> = { NONE: 'none', READ_ONLY: 'read only', EVERYTHING: 'everything' };

function holdingWords(group: PermissionGroup, chosen: readonly string[]): string {
  const holding = groupHolding(group, chosen);
  if (holding !== 'SOME') return HOLDING_WORDS[holding];
  return `${group.permissions.filter((permission) => chosen.includes(permission)).length} of ${group.permissions.length}`;
}

/**
 * The key form's permissions, one fieldset per resource: each group offers "Read only" (its
 * reads, where it has others too), "Everything" and "None", and so does the whole list; the
 * checkboxes say exactly what is chosen. Only what the user may grant is offered.
 */
export function PermissionPicker({ grantable, chosen, onChange }: { grantable: readonly Permission[]; chosen: readonly string[]; onChange: (chosen: Permission[]) => void }) {
  const groups = permissionGroups(grantable);
  // Kept in the documented order whatever the order of the clicks.
  const choose = (keep: (permission: Permission) => boolean) => onChange(grantable.filter(keep));
  const setGroup = (group: PermissionGroup, to: readonly Permission[]) =>
    choose((permission) => (group.permissions.includes(permission) ? to.includes(permission) : chosen.includes(permission)));
  return (
    <fieldset>
      <legend>Permissions</legend>
      <div className="actions">
        <button type="button" onClick={() => choose((permission) => groups.some((group) => group.reads.includes(permission)))}>
          Read only, every group
        </button>
        <button type="button" onClick={() => choose(() => true)}>
          Everything, every group
        </button>
        <button type="button" onClick={() => choose(() => false)}>
          None, every group
        </button>
      </div>
      <div className="permission-groups">
        {groups.map((group) => {
          const label = resourceLabel(group.resource);
          return (
            <fieldset key={group.resource} className="permission-group">
              <legend>
                {label} <span className="hint">({holdingWords(group, chosen)})</span>
              </legend>
              <div className="actions">
                {group.reads.length > 0 && group.reads.length < group.permissions.length ? (
                  <button type="button" aria-label={`Read only, ${label}`} onClick={() => setGroup(group, group.reads)}>
                    Read only
                  </button>
                ) : null}
                <button type="button" aria-label={`Everything, ${label}`} onClick={() => setGroup(group, group.permissions)}>
                  Everything
                </button>
                <button type="button" aria-label={`None, ${label}`} onClick={() => setGroup(group, [])}>
                  None
                </button>
              </div>
              {group.permissions.map((permission) => (
                <label key={permission} className="check" title={permission}>
                  <input
                    type="checkbox"
                    name="permission"
                    value={permission}
                    checked={chosen.includes(permission)}
                    onChange={(e) => choose((p) => (p === permission ? e.target.checked : chosen.includes(p)))}
                  />
                  {permission}
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
    </fieldset>
  );
}
