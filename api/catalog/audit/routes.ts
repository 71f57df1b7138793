/**
 * `GET /api/<resource>/{id}/audits`: a record's audit trail, oldest first, for curators and admins
 * (users' trails: admins only). A deleted record's trail stays readable (its last entry is the
 * deletion). 404 when the record never existed, 403 for readers.
 */
import { seesAll, can } from '../auth/policy.ts';
import { audits, type ResourceDef } from '../schema/resources.ts';
import { serialize } from '../search/index.ts';
import type { CatalogStore } from '../store/types.ts';
import { HttpError, type CatalogUser } from '../schema/types.ts';
import { auditableType } from './audit.ts';

export async function recordAudits(r: ResourceDef, rawId: string, ctx: { store: CatalogStore; user?: CatalogUser }) {
  const type = auditableType(r.collection!);
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
  const entries = Number.isSafeInteger(id)
    ? await ctx.store.find('audits', { auditable_type: type, auditable_id: id }, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] })
    : [];
  if (!entries.length && !(Number.isSafeInteger(id) && (await ctx.store.findByIds(r.collection!, [id])).length)) {
    throw new HttpError(404, `No query results for model [${type}] ${rawId}`);
  }
  if (!seesAll(ctx.user) || !can(ctx.user, 'viewAny', undefined, r)) throw new HttpError(403, 'This action is unauthorized.');
  return { data: entries.map((e) => serialize(audits, e)) };
}
