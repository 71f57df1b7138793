/**
 * The one translator: a validated catalog search → MongoDB-style {filter, sort, projection,
 * skip, limit}, executed as is by both stores. Relation filters (`organisms.name`) are resolved to
 * id lists with a sub-query ("there exists a related row matching"), so the final filter only
 * touches the searched collection.
 */
import { likeToRegex, prefixUpperBound } from './like.ts';
import { RESOURCES, SCOPES, relation, stored, type FieldType, type ResourceDef } from '../../schema/resources.ts';
import type { CatalogStore, CollectionName, Filter, SortKey } from '../../store/types.ts';
import { HttpError, type FilterInput, type SearchInput } from '../../schema/types.ts';
import { STRUCTURE_OPERATORS } from './validate.ts';
import { moleculeFilterForTaxon } from '../../taxonomy/taxon.ts';

export interface Translated {
  filter: Filter;
  sort: SortKey[];
  /** exposed field names to output (all when selects are absent) */
  projection: string[];
  skip: number;
  limit: number;
  page: number;
}

/** Resolves a structure condition to a filter (an id list, or an InChIKey test for `exact`). */
export type StructureResolver = (f: FilterInput) => Promise<Filter>;

export interface TranslateCtx {
  store: CatalogStore;
  /** Structure conditions (`substructure`, `similar`, `exact`); absent: they are refused. */
  structure?: StructureResolver;
  /** dotted prefix when the resource is embedded in the queried collection (properties) */
  prefix?: string;
  /** the queried collection when the resource is embedded in it */
  collection?: CollectionName;
}

const isNull = (f: string): Filter => ({ $or: [{ [f]: null }, { [f]: { $exists: false } }] });
const notNull = (f: string): Filter => ({ [f]: { $exists: true, $ne: null } });

/** AND of filters, merged into one object when their keys do not clash (lets nedb use indexes). */
export function and(parts: Filter[]): Filter {
  const list = parts.filter((p) => Object.keys(p).length);
  if (!list.length) return {};
  if (list.length === 1) return list[0];
  const merged: Filter = {};
  const rest: Filter[] = [];
  const ops = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RegExp) ? Object.keys(v) : null);
  for (const p of list) {
    const keys = Object.keys(p);
    // same field twice: merge operator objects with distinct operators ({$gte} + {$lt} = a range)
    const mergeable = keys.every((k) => {
      if (k.startsWith('$')) return false;
      if (!(k in merged)) return true;
      const a = ops(merged[k]);
      const b = ops(p[k]);
      return !!a && !!b && a.every((o) => o.startsWith('$')) && b.every((o) => o.startsWith('$') && !a.includes(o));
    });
    if (!mergeable) rest.push(p);
    else for (const k of keys) merged[k] = k in merged ? { ...(merged[k] as object), ...(p[k] as object) } : p[k];
  }
  const all = Object.keys(merged).length ? [merged, ...rest] : rest;
  return all.length === 1 ? all[0] : { $and: all };
}

function or(parts: Filter[]): Filter {
  if (parts.length === 1) return parts[0];
  if (parts.some((p) => !Object.keys(p).length)) return {};
  return { $or: parts };
}

function leaf(f: string, op: string, value: unknown): Filter {
  if (value === null || value === undefined) return op === '!=' ? notNull(f) : isNull(f);
  switch (op) {
    case '=':
      return { [f]: value };
    case '!=':
      return { [f]: { $exists: true, $nin: [null, value] } };
    case '>':
      return { [f]: { $gt: value } };
    case '>=':
      return { [f]: { $gte: value } };
    case '<':
      return { [f]: { $lt: value } };
    case '<=':
      return { [f]: { $lte: value } };
    case 'in':
      return { [f]: { $in: value as unknown[] } };
    case 'not in':
      // Laravel compiles an empty NOT IN to `1 = 1`: every row, nulls included.
      if (!(value as unknown[]).length) return {};
      return { [f]: { $exists: true, $nin: [null, ...(value as unknown[])] } };
    case 'like':
    case 'ilike': {
      const { regex, prefix } = likeToRegex(String(value), op === 'ilike');
      const upper = prefixUpperBound(prefix);
      return { [f]: upper ? { $gte: prefix, $lt: upper, $regex: regex } : { $regex: regex } };
    }
    case 'not like': {
      const { regex } = likeToRegex(String(value));
      return and([notNull(f), { $not: { [f]: { $regex: regex } } }]);
    }
    default:
      throw new Error(`operator ${op}`);
  }
}

/** Text of a stored value as PostgreSQL prints it (what `col::text LIKE` compares). */
function pgText(t: FieldType, v: unknown): string {
  if (t === 'decimal' && typeof v === 'number') return v.toFixed(2);
  return String(v);
}

/**
 * LIKE on a number or boolean field: Laravel compares `col::text` on PostgreSQL, so `3%` matches
 * 3 and 30. A document store cannot cast inside a query, so the field's distinct values are
 * matched here and the filter becomes a list of the matching ones.
 */
async function likeOnValues(r: ResourceDef, field: string, path: string, op: string, value: unknown, ctx: TranslateCtx): Promise<Filter> {
  const { regex } = likeToRegex(String(value), op === 'ilike');
  const values = await ctx.store.distinct(ctx.collection ?? r.collection!, path, {});
  const hits = values.filter((v) => regex.test(pgText(r.fields[field], v)));
  return op === 'not like' ? { [path]: { $exists: true, $nin: [null, ...hits] } } : { [path]: { $in: hits } };
}

/** The pattern operators (what `likeOnValues` answers on a number or boolean field). */
const LIKE_OPERATORS = new Set(['like', 'ilike', 'not like']);

const TEXT_TYPES = new Set<FieldType>(['string', 'string[]', 'status', 'role']);

async function translateLeaf(r: ResourceDef, field: string, op: string, value: unknown, ctx: TranslateCtx): Promise<Filter> {
  const dot = field.indexOf('.');
  const pre = ctx.prefix ?? '';
  if (dot < 0) {
    const path = fieldPath(r, field, pre);
    if (LIKE_OPERATORS.has(op) && value !== null && value !== undefined && !TEXT_TYPES.has(r.fields[field])) {
      return likeOnValues(r, field, path, op, value, ctx);
    }
    return leaf(path, op, value);
  }
  const rel = relation(r, field.slice(0, dot))!;
  const rest = field.slice(dot + 1);
  const target = RESOURCES[rel.target];
  if (rel.storage === 'embedded') {
    const inner = await translateLeaf(target, rest, op, value, { ...ctx, prefix: `${pre}${rel.name}.`, collection: ctx.collection ?? r.collection! });
    // only an IS NULL test could match a molecule without properties: require the record then
    const isNullTest = (value === null || value === undefined) && op !== '!=';
    return isNullTest ? and([{ [`${pre}${rel.name}.id`]: { $exists: true, $ne: null } }, inner]) : inner;
  }
  const sub = await translateLeaf(target, rest, op, value, { store: ctx.store });
  if (rel.storage === 'local') {
    const ids = await ctx.store.distinct(target.collection!, 'id', sub);
    return { [pre + rel.field!]: { $in: ids } };
  }
  const ids = await ctx.store.distinct('molecules', rel.field!, sub);
  return { [pre + 'id']: { $in: ids } };
}

async function structureLeaf(f: FilterInput, ctx: TranslateCtx): Promise<Filter> {
  if (!ctx.structure) throw new HttpError(422, `The ${f.operator} operator is not available here.`);
  return ctx.structure(f);
}

/** Filters of one level: AND runs split by each `or`, so AND binds tighter than OR. */
export async function translateFilters(r: ResourceDef, filters: FilterInput[] | undefined, ctx: TranslateCtx): Promise<Filter> {
  if (!filters?.length) return {};
  const runs: Filter[][] = [[]];
  for (const [i, f] of filters.entries()) {
    const atom = f.nested
      ? await translateFilters(r, f.nested, ctx)
      : STRUCTURE_OPERATORS.includes(f.operator ?? '=')
        ? await structureLeaf(f, ctx)
        : await translateLeaf(r, f.field!, f.operator ?? '=', f.value, ctx);
    if (i > 0 && f.type === 'or') runs.push([atom]);
    else runs[runs.length - 1].push(atom);
  }
  return or(runs.map(and));
}

/**
 * Stored path of a field under `prefix`: an embedded record's `outer` field (a property's
 * `molecule_id`) is the containing document's own field, one level up.
 */
export function fieldPath(r: ResourceDef, field: string, prefix = ''): string {
  const outer = r.outer?.[field];
  if (outer !== undefined && prefix) return prefix.slice(0, prefix.lastIndexOf('.', prefix.length - 2) + 1) + outer;
  return prefix + stored(r, field);
}

export function translateSort(r: ResourceDef, search: SearchInput, prefix = ''): SortKey[] {
  if (!search.sorts?.length) return [{ field: `${prefix}id`, dir: -1, nulls: 'first' }];
  const keys: SortKey[] = search.sorts.map((s) => {
    const dir = s.direction === 'desc' ? -1 : 1;
    return { field: fieldPath(r, s.field, prefix), dir, nulls: dir === 1 ? 'last' : 'first' };
  });
  if (!search.sorts.some((s) => s.field === 'id')) keys.push({ field: `${prefix}id`, dir: 1, nulls: 'last' });
  return keys;
}

/** The parameterised scopes (a schema's `parameterScopes`, validated there): name → the filter for its parameters. */
const PARAMETER_SCOPES: Record<string, (store: CatalogStore, params: string[]) => Promise<Filter>> = {
  taxon: (store, [taxon]) => moleculeFilterForTaxon(store, taxon),
};

export async function translateSearch(r: ResourceDef, search: SearchInput, ctx: TranslateCtx): Promise<Translated> {
  const parts = [await translateFilters(r, search.filters, ctx)];
  for (const s of search.scopes ?? []) {
    const param = Object.hasOwn(PARAMETER_SCOPES, s.name) ? PARAMETER_SCOPES[s.name] : undefined;
    parts.push(param ? await param(ctx.store, (s.parameters ?? []) as string[]) : (SCOPES[s.name] ?? {}));
  }
  const limit = search.limit ?? 50;
  const page = Math.max(1, search.page ?? 1);
  return {
    filter: and(parts),
    sort: translateSort(r, search, ctx.prefix),
    projection: search.selects?.length ? search.selects.map((s) => s.field) : Object.keys(r.fields),
    skip: (page - 1) * limit,
    limit,
    page,
  };
}
