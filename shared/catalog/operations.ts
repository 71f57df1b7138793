/** Detail, actions and delete operations. */
import type { Derive } from './mutate.ts';
import { can } from './policy.ts';
import { RESOURCES, type ResourceDef } from './resources.ts';
import { matchingIds, serialize } from './search.ts';
import { nextIdentifier } from './store/open.ts';
import type { CatalogStore } from './store/types.ts';
import { Errors, HttpError, ValidationError, type CatalogUser } from './types.ts';
import { validateSearch } from './validate-search.ts';

type Ctx = { store: CatalogStore; user?: CatalogUser; derive: Derive };
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const emptyAsArray = (o: Record<string, unknown>) => (Object.keys(o).length ? o : []);

/** Field rules advertised in `rules.all` (the checks mutate applies to attribute values). */
function rules(r: ResourceDef) {
  const map: Record<string, string> = { string: 'nullable|string', int: 'nullable|integer', number: 'nullable|numeric', bool: 'nullable|boolean', status: 'nullable|in:DRAFT,INREVIEW,APPROVED,REVOKED', 'string[]': 'nullable|array' };
  return Object.fromEntries(Object.entries(r.fields).filter(([f]) => f !== 'id').map(([f, t]) => [f, [map[t]]]));
}

export function detail(r: ResourceDef, user?: CatalogUser) {
  return {
    data: {
      actions: can(user, 'action') ? r.actions.map((a) => ({ name: a.name, uriKey: a.uriKey, fields: emptyAsArray(a.fields), meta: [], standalone: a.standalone })) : [],
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
      rules: { all: can(user, 'create') ? rules(r) : [], create: [], update: [] },
    },
  };
}

const MOVES: Record<string, { from: string[]; to: string; active?: boolean }> = {
  'submit-for-review': { from: ['DRAFT', 'REVOKED'], to: 'INREVIEW' },
  approve: { from: ['INREVIEW', 'REVOKED'], to: 'APPROVED', active: true },
  revoke: { from: ['APPROVED'], to: 'REVOKED', active: false },
};

export async function runAction(r: ResourceDef, uriKey: string, body: unknown, ctx: Ctx) {
  const action = r.actions.find((a) => a.uriKey === uriKey);
  if (!action) throw new HttpError(404, `The action ${uriKey} does not exist on ${r.name}.`);
  const e = new Errors();
  const b = isObj(body) ? body : {};
  const s = validateSearch(r, b.search, 'search', e);
  const fields: Record<string, unknown> = {};
  if (b.fields !== undefined && !Array.isArray(b.fields)) e.add('fields', 'The fields field must be an array.');
  for (const [n, f] of (Array.isArray(b.fields) ? b.fields : []).entries()) {
    const name = isObj(f) ? f.name : undefined;
    if (typeof name !== 'string' || !Object.hasOwn(action.fields, name)) e.add(`fields.${n}.name`, `The selected fields.${n}.name is invalid.`);
    else if (f.value !== undefined && f.value !== null && (typeof f.value !== 'string' || f.value.length > 1000))
      e.add(`fields.${n}.value`, `The fields.${n}.value field must be a string of at most 1000 characters.`);
    else fields[name] = f.value;
  }
  e.throwIfAny();
  if (!can(ctx.user, 'action')) throw new HttpError(403, 'This action is unauthorized.');
  const ids = await matchingIds(r, s, ctx);
  const coll = r.collection!;
  return ctx.store.exclusive(async () => {
    if (MOVES[uriKey]) {
      const m = MOVES[uriKey];
      const docs = await ctx.store.findByIds(coll, ids);
      const bad = docs.filter((d) => !m.from.includes((d.status as string) ?? 'DRAFT'));
      if (bad.length) {
        const list = bad.slice(0, 10).map((d) => `${d.identifier ?? `id ${d.id}`} (${d.status ?? 'DRAFT'})`).join(', ');
        throw new ValidationError({ search: [`Cannot move ${bad.length} molecule(s) to ${m.to}: ${list}${bad.length > 10 ? ', ...' : ''}; allowed from ${m.from.join(' or ')}.`] });
      }
      for (const d of docs) {
        const set: Record<string, unknown> = { status: m.to };
        if (m.active !== undefined) set.active = m.active;
        if (m.to === 'APPROVED' && !d.identifier) set.identifier = await nextIdentifier(ctx.store);
        await ctx.store.update(coll, d.id, set);
      }
      return { data: { impacted: docs.length } };
    }
    if (uriKey === 'recompute-properties') {
      let impacted = 0;
      for (const d of await ctx.store.findByIds(coll, ids)) {
        if (typeof d.canonical_smiles !== 'string') continue;
        const der = await ctx.derive({ structure: d.canonical_smiles }).catch(() => null);
        if (!der) continue;
        await ctx.store.update(coll, d.id, { standard_inchi: der.standard_inchi, standard_inchi_key: der.standard_inchi_key, has_stereo: der.has_stereo, murcko_framework: der.murcko_framework });
        await ctx.store.setProperties(d.id, { ...der.properties });
        impacted++;
      }
      return { data: { impacted } };
    }
    // refresh-counts
    const field = r.name === 'organisms' ? 'organism_ids' : 'collection_ids';
    for (const id of ids) await ctx.store.update(coll, id, { molecule_count: await ctx.store.count('molecules', { [field]: id }) });
    return { data: { impacted: ids.length } };
  });
}

export async function destroy(r: ResourceDef, body: unknown, ctx: Ctx) {
  const e = new Errors();
  const res = isObj(body) ? body.resources : undefined;
  if (res === undefined || res === null) e.add('resources', 'The resources field is required.');
  else if (!Array.isArray(res)) e.add('resources', 'The resources field must be an array.');
  e.throwIfAny();
  const ids = res as unknown[];
  const docs = await ctx.store.findByIds(r.collection!, ids.filter((x): x is number => Number.isInteger(x)));
  const have = new Set(docs.map((d) => d.id));
  ids.forEach((x, n) => {
    if (ids.indexOf(x) !== n) e.add(`resources.${n}`, `The resources.${n} field has a duplicate value.`);
    else if (!have.has(x as number)) e.add(`resources.${n}`, `The selected resources.${n} is invalid.`);
  });
  e.throwIfAny();
  for (const d of docs) if (!can(ctx.user, 'delete', d)) throw new HttpError(403, 'This action is unauthorized.');
  await ctx.store.exclusive(async () => {
    const back = r.relations.find((x) => x.storage === 'remote');
    if (back) {
      for (const d of docs) {
        for (const m of await ctx.store.find('molecules', { [back.field!]: d.id }, { fields: ['id'] })) await ctx.store.unlink(m.id, back.field!, [d.id]);
      }
    }
    await ctx.store.remove(r.collection!, docs.map((d) => d.id));
  });
  return { data: docs.map((d) => serialize(r, d)), meta: [] };
}
