/** Executes a validated search: page query, includes, aggregates, gates, flat paginator. */
import { and, translateFilters, translateSearch, translateSort, type StructureResolver } from './query.ts';
import { GATE_KEYS, can, seesAll } from '../../auth/policy.ts';
import { RESOURCES, relation, stored, type RelationDef, type ResourceDef } from '../../schema/resources.ts';
import type { CatalogStore, Doc, Filter } from '../../store/types.ts';
import type { AggregateInput, CatalogUser, IncludeInput, SearchInput } from '../../schema/types.ts';

export interface Ctx {
  store: CatalogStore;
  /** Resolves structure conditions (catalog structure search); absent: they are refused. */
  structure?: StructureResolver;
  user?: CatalogUser;
}

type Rec = Record<string, unknown>;

/**
 * A stored value as its declared type reads it: a list field (`string[]`) holding one string (a
 * record written before the field became a list: the NPClassifier class fields, docs/catalog.md)
 * is that one-element list, an empty string null; anything else as stored, missing as null.
 */
export function readValue(type: string | undefined, v: unknown): unknown {
  if (v === undefined) return null;
  if (type === 'string[]' && typeof v === 'string') return v.trim() === '' ? null : [v];
  return v;
}

/** Output record: exposed fields in declaration order, missing ones as null. */
export function serialize(r: ResourceDef, doc: Rec, fields: string[] = Object.keys(r.fields)): Rec {
  const out: Rec = {};
  for (const f of fields) out[f] = readValue(r.fields[f], doc[stored(r, f)]);
  return out;
}

/** An embedded record with its `outer` fields filled from the document holding it (a property's `molecule_id`). */
export function embeddedRecord(r: ResourceDef, holder: Rec, rec: Rec): Rec {
  if (!r.outer) return rec;
  return { ...rec, ...Object.fromEntries(Object.entries(r.outer).map(([k, path]) => [k, holder[path]])) };
}

/** The resource whose documents embed `r`'s records, and the relation they sit under (properties: molecules). */
export function holderOf(r: ResourceDef): { holder: ResourceDef; rel: RelationDef } {
  for (const h of Object.values(RESOURCES)) {
    const rel = h.relations.find((x) => x.storage === 'embedded' && x.target === r.name);
    if (rel) return { holder: h, rel };
  }
  throw new Error(`${r.name} is not embedded in any resource`);
}

/**
 * Readers see only the records they own on an owner-scoped resource (reports); everyone else sees all.
 */
export function ownerScope(r: ResourceDef, user: CatalogUser | undefined): Filter {
  const f = r.schema.ownerField;
  return f && !seesAll(user) ? { [f]: user?.id ?? -1 } : {};
}

/** Turns dotted includes into a tree; same-name includes merge, each keeps its own options. */
function includeTree(includes: IncludeInput[]): IncludeInput[] {
  const roots = new Map<string, IncludeInput>();
  for (const inc of includes) {
    const [head, ...rest] = inc.relation.split('.');
    const node = roots.get(head) ?? { relation: head };
    if (rest.length) node.includes = [...(node.includes ?? []), { ...inc, relation: rest.join('.') }];
    else Object.assign(node, { ...inc, includes: [...(node.includes ?? []), ...(inc.includes ?? [])] });
    roots.set(head, node);
  }
  return [...roots.values()].map((n) => ({ ...n, includes: n.includes?.length ? includeTree(n.includes) : undefined }));
}

/** The related documents of one parent for a to-many relation. */
async function related(rel: RelationDef, parent: Doc, filter: Filter, ctx: Ctx, opts: { sort?: ReturnType<typeof translateSort>; limit?: number; fields?: string[] }) {
  const target = RESOURCES[rel.target];
  const link =
    rel.storage === 'local' ? { id: { $in: (parent[rel.field!] as number[] | undefined) ?? [] } } : { [rel.field!]: parent.id };
  return ctx.store.find(target.collection!, and([link, filter]), opts);
}

async function addIncludes(r: ResourceDef, docs: Doc[], out: Rec[], includes: IncludeInput[], ctx: Ctx) {
  for (const inc of includeTree(includes)) {
    const rel = relation(r, inc.relation)!;
    const target = RESOURCES[rel.target];
    if (rel.storage === 'embedded') {
      let keep = new Set(docs.map((d) => d.id));
      if (inc.filters?.length) {
        const f = await translateFilters(target, inc.filters, { store: ctx.store, structure: ctx.structure, prefix: `${rel.name}.`, collection: r.collection! });
        const hit = await ctx.store.find(r.collection!, and([{ id: { $in: [...keep] } }, f]), { fields: ['id'] });
        keep = new Set(hit.map((d) => d.id));
      }
      const fields = inc.selects?.length ? inc.selects.map((s) => s.field) : undefined;
      docs.forEach((d, i) => {
        const p = d[rel.name] as Rec | null | undefined;
        out[i][rel.name] = p && keep.has(d.id) ? withGates(target, p, serialize(target, embeddedRecord(target, d, p), fields), inc, ctx) : null;
      });
      continue;
    }
    const q = await translateSearch(target, { ...inc, page: 1 }, { store: ctx.store, structure: ctx.structure });
    // without a limit an include is unbounded in Lomkit; we cap it at 1000 rows per parent
    const limit = inc.limit ?? 1000;
    for (const [i, d] of docs.entries()) {
      const rows = await related(rel, d, q.filter, ctx, { sort: q.sort, limit });
      const recs = rows.map((row) => withGates(target, row, serialize(target, row, q.projection), inc, ctx));
      if (inc.aggregates?.length) await addAggregates(target, rows, recs, inc.aggregates, ctx);
      if (inc.includes?.length) await addIncludes(target, rows, recs, inc.includes, ctx);
      out[i][rel.name] = recs;
    }
  }
}

function aggregate(type: AggregateInput['type'], values: unknown[]): unknown {
  const nums = values.filter((v) => v !== null && v !== undefined);
  if (type === 'count') return values.length;
  if (type === 'exists') return values.length > 0;
  if (!nums.length) return null;
  if (type === 'min') return nums.reduce((a, b) => ((b as number) < (a as number) ? b : a));
  if (type === 'max') return nums.reduce((a, b) => ((b as number) > (a as number) ? b : a));
  const sum = nums.reduce((a: number, b) => a + Number(b), 0);
  return type === 'sum' ? sum : sum / nums.length;
}

async function addAggregates(r: ResourceDef, docs: Doc[], out: Rec[], aggs: AggregateInput[], ctx: Ctx) {
  for (const a of aggs) {
    const rel = relation(r, a.relation)!;
    const target = RESOURCES[rel.target];
    const key = a.alias ?? `${a.relation}_${a.type}${a.field ? `_${a.field}` : ''}`;
    if (rel.storage === 'embedded') {
      let keep = new Set(docs.filter((d) => d[rel.name]).map((d) => d.id));
      if (a.filters?.length) {
        const f = await translateFilters(target, a.filters, { store: ctx.store, structure: ctx.structure, prefix: `${rel.name}.`, collection: r.collection! });
        keep = new Set((await ctx.store.find(r.collection!, and([{ id: { $in: [...keep] } }, f]), { fields: ['id'] })).map((d) => d.id));
      }
      docs.forEach((d, i) => {
        const p = keep.has(d.id) ? embeddedRecord(target, d, d[rel.name] as Rec) : null;
        out[i][key] = aggregate(a.type, p ? [a.field ? p[stored(target, a.field)] : 1] : []);
      });
      continue;
    }
    const f = await translateFilters(target, a.filters, { store: ctx.store, structure: ctx.structure });
    for (const [i, d] of docs.entries()) {
      const fields = a.field ? [stored(target, a.field)] : ['id'];
      const rows = await related(rel, d, f, ctx, { fields });
      out[i][key] = aggregate(a.type, rows.map((row) => (a.field ? row[fields[0]] : row.id)));
    }
  }
}

function withGates(r: ResourceDef, doc: Rec, rec: Rec, s: SearchInput, ctx: Ctx): Rec {
  const gates = (s.gates ?? []).filter((g) => GATE_KEYS[g]);
  if (!gates.length) return rec;
  rec.gates = Object.fromEntries(gates.map((g) => [GATE_KEYS[g], can(ctx.user, g as never, doc, r)]));
  return rec;
}

/**
 * A search of an embedded resource (properties): the holding documents (molecules) that have the
 * record and match the filters under its prefix, sorted and paged by the record's fields.
 */
async function searchEmbedded(r: ResourceDef, s: SearchInput, ctx: Ctx) {
  const { holder, rel } = holderOf(r);
  const prefix = `${rel.name}.`;
  const q = await translateSearch(r, s, { store: ctx.store, structure: ctx.structure, prefix, collection: holder.collection! });
  const filter = and([{ [`${prefix}id`]: { $exists: true, $ne: null } }, q.filter]);
  const [total, docs] = await Promise.all([
    ctx.store.count(holder.collection!, filter),
    ctx.store.find(holder.collection!, filter, { sort: q.sort, skip: q.skip, limit: q.limit }),
  ]);
  const recs = docs.map((d) => embeddedRecord(r, d, d[rel.name] as Rec));
  return { q, total, docs: recs as Doc[] };
}

export async function search(r: ResourceDef, s: SearchInput, ctx: Ctx) {
  let q, total, docs;
  if (r.collection) {
    q = await translateSearch(r, s, { store: ctx.store, structure: ctx.structure });
    const filter = and([q.filter, ownerScope(r, ctx.user)]);
    [total, docs] = await Promise.all([
      ctx.store.count(r.collection, filter),
      ctx.store.find(r.collection, filter, { sort: q.sort, skip: q.skip, limit: q.limit }),
    ]);
  } else ({ q, total, docs } = await searchEmbedded(r, s, ctx));
  const data = docs.map((d) => withGates(r, d, serialize(r, d, q.projection), s, ctx));
  if (s.aggregates?.length) await addAggregates(r, docs, data, s.aggregates, ctx);
  if (s.includes?.length) await addIncludes(r, docs, data, s.includes, ctx);
  const meta = s.gates?.includes('create') ? { gates: { authorized_to_create: can(ctx.user, 'create', undefined, r) } } : [];
  return {
    current_page: q.page,
    data,
    from: data.length ? q.skip + 1 : null,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    per_page: q.limit,
    to: data.length ? q.skip + data.length : null,
    total,
    meta,
  };
}

/** Every record id matching a search (no pagination; `limit` caps it), for actions. */
export async function matchingIds(r: ResourceDef, s: SearchInput, ctx: Ctx): Promise<number[]> {
  const q = await translateSearch(r, s, { store: ctx.store, structure: ctx.structure });
  const docs = await ctx.store.find(r.collection!, and([q.filter, ownerScope(r, ctx.user)]), { sort: q.sort, limit: s.limit ?? 0, fields: ['id'] });
  return docs.map((d) => d.id);
}
