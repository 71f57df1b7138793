/**
 * Who may do what: reader (detail, search), curator (+ mutate, actions), admin (+ delete, users).
 * Resources adjust it from their declaration: `adminOnly` (users), `readOnlyRoute` (properties:
 * only read on its route), `createRole` (reports: readers create), `ownerField` (reports: readers
 * see and edit their own, while a draft), `noDelete` (reports are never deleted), and an action's
 * `role`.
 */
import type { ActionDef, Role } from '../schema/define.ts';
import type { CatalogUser } from '../schema/types.ts';

export type Ability = 'viewAny' | 'view' | 'create' | 'update' | 'delete' | 'restore' | 'forceDelete' | 'action';

const LEVEL = { reader: 0, curator: 1, admin: 2 } as const;
const level = (user: CatalogUser | undefined) => (user ? (LEVEL[user.role] ?? -1) : -1);

interface Guarded {
  adminOnly?: boolean;
  schema?: { readOnlyRoute?: boolean; createRole?: Role; ownerField?: string; noDelete?: boolean };
}

/** Curators and admins see every record of an owner-scoped resource; readers their own. */
export const seesAll = (user: CatalogUser | undefined) => level(user) >= 1;

/** The record belongs to the user (owner-scoped resources: a report's `user_id`). */
const owns = (user: CatalogUser, record: unknown, field: string | undefined) =>
  !!field && !!record && typeof record === 'object' && (record as Record<string, unknown>)[field] === user.id;

/**
 * `record`: the stored document when the question is about one (gates, delete, mutate update of
 * an owner-scoped resource); absent: about the resource in general.
 */
export function can(user: CatalogUser | undefined, ability: Ability, record?: unknown, resource?: Guarded): boolean {
  if (!user) return false;
  const lvl = level(user);
  if (resource?.adminOnly && lvl < 2) return false;
  const s = resource?.schema ?? {};
  switch (ability) {
    case 'viewAny':
      return lvl >= 0;
    case 'view':
      return lvl >= 1 || !s.ownerField || !record || owns(user, record, s.ownerField);
    case 'create':
      if (s.readOnlyRoute) return lvl >= 1;
      return lvl >= LEVEL[s.createRole ?? 'curator'];
    case 'update': {
      if (!s.ownerField) return lvl >= 1;
      // reports: the author edits its own draft; curators any report not yet decided (a decided
      // one is kept as it was decided); the record is needed to answer
      const status = record && typeof record === 'object' ? (record as Record<string, unknown>).status : undefined;
      if (status === undefined || status === 'APPROVED' || status === 'REJECTED') return false;
      return lvl >= 1 || (owns(user, record, s.ownerField) && status === 'DRAFT');
    }
    case 'action':
      return lvl >= 1;
    case 'delete':
      return !s.noDelete && !s.readOnlyRoute && lvl >= 2;
    default:
      return false; // no soft deletes: restore / forceDelete never apply
  }
}

/** Whether the user may run this action (an action's `role`, default curator). */
export const canRun = (user: CatalogUser | undefined, action: ActionDef) => !!user && level(user) >= LEVEL[action.role ?? 'curator'];

export const GATE_KEYS: Record<string, string> = {
  view: 'authorized_to_view',
  update: 'authorized_to_update',
  delete: 'authorized_to_delete',
  restore: 'authorized_to_restore',
  forceDelete: 'authorized_to_force_delete',
};
