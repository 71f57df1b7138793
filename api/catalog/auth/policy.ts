/** Who may do what: reader (detail, search), curator (+ mutate, actions), admin (+ delete, users). */
import type { CatalogUser } from '../schema/types.ts';

export type Ability = 'viewAny' | 'view' | 'create' | 'update' | 'delete' | 'restore' | 'forceDelete' | 'action';

const LEVEL = { reader: 0, curator: 1, admin: 2 } as const;

/**
 * No per-record rules yet: the record argument keeps the per-record gate contract open. An
 * admin-only resource (users) allows its abilities to admins alone.
 */
export function can(user: CatalogUser | undefined, ability: Ability, _record?: unknown, resource?: { adminOnly?: boolean }): boolean {
  if (!user) return false;
  const lvl = LEVEL[user.role] ?? -1;
  if (resource?.adminOnly && lvl < 2) return false;
  switch (ability) {
    case 'viewAny':
    case 'view':
      return lvl >= 0;
    case 'create':
    case 'update':
    case 'action':
      return lvl >= 1;
    case 'delete':
      return lvl >= 2;
    default:
      return false; // no soft deletes: restore / forceDelete never apply
  }
}

export const GATE_KEYS: Record<string, string> = {
  view: 'authorized_to_view',
  update: 'authorized_to_update',
  delete: 'authorized_to_delete',
  restore: 'authorized_to_restore',
  forceDelete: 'authorized_to_force_delete',
};
