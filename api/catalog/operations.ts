/** Detail and delete operations (search, mutate and actions have their own modules). */
import { refreshMoleculeCounts, touchLinksOf, touchedNone } from './mutate/counts.ts';
import { can, canRun } from './auth/policy.ts';
import { tracking } from './audit/audit.ts';
import type { FieldSpec } from './schema/define.ts';
import { RESOURCES, type ResourceDef } from './schema/resources.ts';
import { serialize } from './search/index.ts';
import type { CatalogStore } from './store/types.ts';
import { Errors, HttpError, ROLES, type CatalogUser } from './schema/types.ts';

type Ctx = { store: CatalogStore; user?: CatalogUser };
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const emptyAsArray = (o: Record<string, unknown>) => (Object.keys(o).length ? o : []);

/** Field rules advertised in `rules.all` (the checks mutate applies to attribute values). */
function rules(r: ResourceDef) {
  const map: Record<string, string> = { string: 'nullable|string', int: 'nullable|integer', number: 'nullable|numeric', decimal: 'nullable|numeric', bool: 'nullable|boolean', status: 'nullable|in:DRAFT,INREVIEW,APPROVED,REVOKED', role: `in:${ROLES.join(',')}`, 'string[]': 'nullable|array', 'int[]': 'nullable|array', json: 'nullable|array' };
  // exposed fields in order, then write-only ones; a declared `rule` replaces the type's
  const writable = Object.entries(r.schema.fields).filter(([f, s]) => f !== 'id' && s.visibility !== 'internal');
  const rule = (s: FieldSpec) => s.rule ?? (s.oneOf ? `nullable|in:${s.oneOf.join(',')}` : map[s.type]);
  return Object.fromEntries(writable.map(([f, s]) => [f, [s.readOnly || s.outer ? 'prohibited' : rule(s)]]));
}

export function detail(r: ResourceDef, user?: CatalogUser) {
  return {
    data: {
      actions: r.actions.filter((a) => canRun(user, a)).map((a) => ({ name: a.name, uriKey: a.uriKey, fields: emptyAsArray(a.fields), meta: [], standalone: a.standalone })),
      instructions: [],
      scout_instructions: [],
      fields: Object.keys(r.fields),
      scout_fields: [],
      limits: r.limits,
      scopes: r.scopes,
      relations: r.relations.map((rel) => ({
        resource: RESOURCES[rel.target].className,
        relation: rel.name,
        constraints: { required_on_creation: false, prohibited_on_creation: false, required_on_update: false, prohibited_on_update: false },
        name: rel.kind,
      })),
      rules: { all: !r.schema.readOnlyRoute && can(user, 'create', undefined, r) ? rules(r) : [], create: [], update: [] },
    },
  };
}

export async function destroy(r: ResourceDef, body: unknown, ctx: Ctx) {
  const e = new Errors();
  const res = isObj(body) ? body.resources : undefined;
  // An empty list fails `required` too, as in Laravel.
  if (res === undefined || res === null || (Array.isArray(res) && !res.length)) e.add('resources', 'The resources field is required.');
  else if (!Array.isArray(res)) e.add('resources', 'The resources field must be an array.');
  e.throwIfAny();
  const ids = res as unknown[];
  const docs = await ctx.store.findByIds(r.collection!, ids.filter((x): x is number => Number.isInteger(x)));
  const have = new Set(docs.map((d) => d.id));
  // Laravel's `distinct` flags every position of a repeated value, the first one included;
  // `exists` still runs on each (a repeated unknown id gets both messages).
  const seen = new Map<unknown, number>();
  for (const x of ids) seen.set(x, (seen.get(x) ?? 0) + 1);
  ids.forEach((x, n) => {
    if (seen.get(x)! > 1) e.add(`resources.${n}`, `The resources.${n} field has a duplicate value.`);
    if (!have.has(x as number)) e.add(`resources.${n}`, `The selected resources.${n} is invalid.`);
  });
  e.throwIfAny();
  for (const d of docs) if (!can(ctx.user, 'delete', d, r)) throw new HttpError(403, 'This action is unauthorized.');
  await ctx.store.exclusive(async () => {
    const store = tracking(ctx.store);
    // Links live on the molecules: deleting the other end unlinks it; deleting molecules changes counts.
    const touched = r.name === 'molecules' ? touchLinksOf(touchedNone(), docs) : touchedNone();
    const back = r.relations.find((x) => x.storage === 'remote');
    if (back) {
      for (const d of docs) {
        for (const m of await store.find('molecules', { [back.field!]: d.id }, { fields: ['id'] })) {
          await store.unlink(m.id, back.field!, [d.id]);
          touched.molecules.add(m.id);
        }
      }
    }
    const ids = docs.map((d) => d.id);
    await store.remove(r.collection!, ids);
    await store.flush(ctx.user, 'delete');
    // molecule_count of their organisms and collections, their stereo families; the unlinked molecules' own counts
    await refreshMoleculeCounts(ctx.store, touched);
    if (r.name === 'users') {
      const tokens = await ctx.store.find('tokens', { user_id: { $in: ids } }, { fields: ['id'] });
      await ctx.store.remove('tokens', tokens.map((x) => x.id));
    }
  });
  return { data: docs.map((d) => serialize(r, d)), meta: [] };
}
