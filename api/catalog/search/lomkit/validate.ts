/**
 * Search validation with Laravel/Lomkit error keys and messages (docs/spec/catalog-api.md §2.3). Returns a normalised
 * copy with filter values coerced to the field types. Objects as values are refused (an object
 * with `$` keys would be a MongoDB operator: injection).
 */
import { RESOURCES, relation, type FieldType, type ResourceDef } from '../../schema/resources.ts';
import { Errors, type FilterInput, type SearchInput } from '../../schema/types.ts';
import { MAX_LIKE_WILDCARDS, likeWildcards } from './like.ts';
import { MAX_STRUCTURE_QUERY } from '../structure/request.ts';

/** Operators on structures, answered by catalog structure search. */
export const STRUCTURE_OPERATORS = ['substructure', 'similar', 'exact'];

/** Lomkit's, with COCONUT's `ilike` (its app/Rules/Search/SearchFilter.php, PR #806: case-insensitive LIKE). */
export const OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'like', 'ilike', 'not like', 'in', 'not in', ...STRUCTURE_OPERATORS];
export const GATES = ['viewAny', 'view', 'create', 'update', 'delete', 'restore', 'forceDelete'];
export const AGG = ['count', 'min', 'max', 'avg', 'sum', 'exists'];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
export const hasOperatorKeys = (v: unknown): boolean =>
  Array.isArray(v) ? v.some(hasOperatorKeys) : isObj(v) && Object.keys(v).some((k) => k.startsWith('$') || hasOperatorKeys(v[k]));

/** Field type of an exposed field or a relation path, or undefined when not valid. */
export function fieldType(r: ResourceDef, path: string): FieldType | undefined {
  const dot = path.indexOf('.');
  if (dot < 0) return Object.hasOwn(r.fields, path) ? r.fields[path] : undefined;
  const rel = relation(r, path.slice(0, dot));
  return rel ? fieldType(RESOURCES[rel.target], path.slice(dot + 1)) : undefined;
}

/** Coerces a scalar to a field type; returns [value] or an error message suffix. */
export function coerce(t: FieldType, v: unknown): [unknown] | string {
  if (v === null) return [null];
  switch (t) {
    case 'int':
    case 'number':
    case 'decimal': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) return 'must be a number.';
      if (t === 'int' && !Number.isInteger(n)) return 'must be an integer.';
      return [n];
    }
    case 'bool':
      if (v === true || v === 'true' || v === 1 || v === '1') return [true];
      if (v === false || v === 'false' || v === 0 || v === '0') return [false];
      return 'must be true or false.';
    default:
      if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
      if (typeof v !== 'string') return 'must be a string.';
      return [v];
  }
}

function relationPathValid(r: ResourceDef, path: string): ResourceDef | undefined {
  let cur: ResourceDef | undefined = r;
  for (const part of path.split('.')) {
    const rel: ReturnType<typeof relation> = cur && relation(cur, part);
    cur = rel ? RESOURCES[rel.target] : undefined;
  }
  return cur;
}

function validateFilter(r: ResourceDef, f: unknown, key: string, depth: number, e: Errors): FilterInput | undefined {
  if (!isObj(f)) {
    e.add(key, `The ${key} field must be an array.`);
    return undefined;
  }
  if (f.type !== undefined && f.type !== 'and' && f.type !== 'or') e.add(`${key}.type`, `The selected ${key}.type is invalid.`);
  if (f.nested !== undefined) {
    if (depth > 0) {
      e.add(`${key}.nested`, `The ${key}.nested field is prohibited.`);
      return undefined;
    }
    if (f.field !== undefined) e.add(`${key}.nested`, `The ${key}.nested field prohibits ${key}.field / operator / value from being present.`);
    if (!Array.isArray(f.nested)) {
      e.add(`${key}.nested`, `The ${key}.nested field must be an array.`);
      return undefined;
    }
    const nested = f.nested.map((n, m) => validateFilter(r, n, `${key}.nested.${m}`, depth + 1, e)!);
    return { nested, type: f.type as FilterInput['type'] };
  }
  const out: FilterInput = { type: f.type as FilterInput['type'] };
  const reqMsg = `The ${key}.field field is required when ${key}.nested is not present.`;
  let t: FieldType | undefined;
  if (f.field === undefined || f.field === null || f.field === '') e.add(`${key}.field`, reqMsg);
  else if (typeof f.field !== 'string' || !(t = fieldType(r, f.field)) || t === 'json') e.add(`${key}.field`, `The 'field' field is not valid.`);
  else out.field = f.field;
  const op = f.operator ?? '=';
  if (typeof op !== 'string' || !OPERATORS.includes(op)) {
    e.add(`${key}.operator`, `The selected ${key}.operator is invalid.`);
    return out;
  }
  out.operator = op;
  if (STRUCTURE_OPERATORS.includes(op)) return validateStructureFilter(r, f, out, key, e);
  const v = f.value;
  const vkey = `${key}.value`;
  const required = `The ${vkey} field is required when ${key}.nested is not present.`;
  if (v === undefined || v === null) {
    if (op !== '=' && op !== '!=') e.add(vkey, required);
    out.value = null;
    return out;
  }
  if (typeof v === 'string' && v.trim() === '') {
    e.add(vkey, required);
    return out;
  }
  if (hasOperatorKeys(v)) {
    e.add(vkey, `The ${vkey} field must not contain operators.`);
    return out;
  }
  if (isObj(v)) {
    e.add(vkey, `The ${vkey} field must be a string, a number, a boolean or a list.`);
    return out;
  }
  const list = op === 'in' || op === 'not in';
  if (list !== Array.isArray(v)) {
    e.add(vkey, list ? `The ${vkey} field must be an array.` : `The ${vkey} field must be a string, a number or a boolean.`);
    return out;
  }
  if (!t) return out;
  const like = op === 'like' || op === 'ilike' || op === 'not like';
  if (like && typeof v === 'string' && likeWildcards(v) > MAX_LIKE_WILDCARDS) {
    e.add(vkey, `The ${vkey} field must not contain more than ${MAX_LIKE_WILDCARDS} runs of % wildcards.`);
    return out;
  }
  const ct: FieldType = like ? 'string' : t === 'string[]' || t === 'status' ? 'string' : t === 'int[]' ? 'int' : t;
  if (Array.isArray(v)) {
    const vals: unknown[] = [];
    for (const [j, x] of v.entries()) {
      const c = isObj(x) || Array.isArray(x) ? 'must be a string, a number or a boolean.' : coerce(ct, x);
      if (typeof c === 'string') e.add(`${vkey}.${j}`, `The ${vkey}.${j} field ${c}`);
      else vals.push(c[0]);
    }
    out.value = vals;
  } else {
    const c = coerce(ct, v);
    if (typeof c === 'string') e.add(vkey, `The ${vkey} field ${c}`);
    else out.value = c[0];
  }
  return out;
}

export function validateFilters(r: ResourceDef, filters: unknown, key: string, e: Errors): FilterInput[] | undefined {
  if (filters === undefined) return undefined;
  if (!Array.isArray(filters)) {
    e.add(key, `The ${key} field must be an array.`);
    return undefined;
  }
  return filters.map((f, n) => validateFilter(r, f, `${key}.${n}`, 0, e)!);
}

function list(v: unknown, key: string, e: Errors): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    e.add(key, `The ${key} field must be an array.`);
    return [];
  }
  return v;
}

/** Validates `search` (prefix `search`, or `search.includes.N` for an include). */
/** The string parameters of a parameterised scope, one per declared name, each non-empty (at most 200 characters). */
function scopeParameters(names: string[], given: unknown, k: string, e: Errors): string[] {
  if (given !== undefined && !Array.isArray(given)) return [];
  const items: unknown[] = Array.isArray(given) ? given : [];
  if (items.length !== names.length) {
    e.add(`${k}.parameters`, `The ${k}.parameters field must have ${names.length} item${names.length === 1 ? '' : 's'}: ${names.join(', ')}.`);
    return [];
  }
  return items.map((v, i) => {
    const pk = `${k}.parameters.${i}`;
    if (typeof v !== 'string') e.add(pk, `The ${pk} field (${names[i]}) must be a string.`);
    else if (!v.trim()) e.add(pk, `The ${pk} field (${names[i]}) is required.`);
    else if (v.length > 200) e.add(pk, `The ${pk} field (${names[i]}) must not be greater than 200 characters.`);
    return typeof v === 'string' ? v.trim() : '';
  });
}

export function validateSearch(r: ResourceDef, raw: unknown, key: string, e: Errors, include = false): SearchInput {
  if (raw === undefined || raw === null) return {};
  if (!isObj(raw)) {
    e.add(key, `The ${key} field must be an array.`);
    return {};
  }
  const s: SearchInput = {};
  if (raw.text !== undefined) e.add(`${key}.text`, `The ${key}.text field is prohibited.`);
  if (raw.limit !== undefined) {
    if (!Number.isInteger(raw.limit)) e.add(`${key}.limit`, `The ${key}.limit field must be an integer.`);
    else if (!r.limits.includes(raw.limit as number)) e.add(`${key}.limit`, `The selected ${key}.limit is invalid.`);
    else s.limit = raw.limit as number;
  }
  if (raw.page !== undefined && !include) {
    if (!Number.isInteger(raw.page)) e.add(`${key}.page`, `The ${key}.page field must be an integer.`);
    else s.page = raw.page as number;
  }
  s.filters = validateFilters(r, raw.filters, `${key}.filters`, e);
  s.sorts = list(raw.sorts, `${key}.sorts`, e).map((x, n) => {
    const k = `${key}.sorts.${n}`;
    const o = isObj(x) ? x : {};
    if (o.field === undefined || o.field === null || o.field === '') e.add(`${k}.field`, `The ${k}.field field is required.`);
    else if (typeof o.field !== 'string' || !Object.hasOwn(r.fields, o.field) || r.fields[o.field] === 'json') e.add(`${k}.field`, `The selected ${k}.field is invalid.`);
    if (o.direction !== undefined && o.direction !== 'asc' && o.direction !== 'desc') e.add(`${k}.direction`, `The selected ${k}.direction is invalid.`);
    return { field: o.field as string, direction: (o.direction ?? 'asc') as 'asc' | 'desc' };
  });
  s.selects = list(raw.selects, `${key}.selects`, e).map((x, n) => {
    const k = `${key}.selects.${n}.field`;
    const o = isObj(x) ? x : {};
    if (o.field === undefined || o.field === null || o.field === '') e.add(k, `The ${k} field is required.`);
    else if (typeof o.field !== 'string' || !Object.hasOwn(r.fields, o.field)) e.add(k, `The selected ${k} is invalid.`);
    return { field: o.field as string };
  });
  s.scopes = list(raw.scopes, `${key}.scopes`, e).map((x, n) => {
    const k = `${key}.scopes.${n}.name`;
    const o = isObj(x) ? x : {};
    if (o.name === undefined || o.name === null || o.name === '') e.add(k, `The ${k} field is required.`);
    else if (typeof o.name !== 'string' || !r.scopes.includes(o.name)) e.add(k, `The selected ${k} is invalid.`);
    if (o.parameters !== undefined && !Array.isArray(o.parameters)) e.add(`${key}.scopes.${n}.parameters`, `The ${key}.scopes.${n}.parameters field must be an array.`);
    const declared = typeof o.name === 'string' && r.schema.parameterScopes && Object.hasOwn(r.schema.parameterScopes, o.name) ? r.schema.parameterScopes[o.name] : undefined;
    if (declared) return { name: o.name as string, parameters: scopeParameters(declared.parameters, o.parameters, `${key}.scopes.${n}`, e) };
    return { name: o.name as string };
  });
  list(raw.instructions, `${key}.instructions`, e).forEach((_, n) =>
    e.add(`${key}.instructions.${n}.name`, `The selected ${key}.instructions.${n}.name is invalid.`),
  );
  if (raw.gates !== undefined) {
    if (!Array.isArray(raw.gates)) e.add(`${key}.gates`, `The ${key}.gates field must be an array.`);
    else if (raw.gates.some((g) => typeof g !== 'string' || !GATES.includes(g))) e.add(`${key}.gates`, `The selected ${key}.gates is invalid.`);
    else s.gates = raw.gates as string[];
  }
  s.includes = list(raw.includes, `${key}.includes`, e).map((x, n) => {
    const k = `${key}.includes.${n}`;
    const o = isObj(x) ? x : {};
    const target = typeof o.relation === 'string' ? relationPathValid(r, o.relation) : undefined;
    if (!target) {
      e.add(`${k}.relation`, 'The relation is not valid or allowed for this resource.');
      return { relation: '' };
    }
    return { ...validateSearch(target, o, k, e, true), relation: o.relation as string };
  });
  s.aggregates = list(raw.aggregates, `${key}.aggregates`, e).map((x, n) => {
    const k = `${key}.aggregates.${n}`;
    const o = isObj(x) ? x : {};
    const rel = typeof o.relation === 'string' ? relation(r, o.relation) : undefined;
    if (!rel) e.add(`${k}.relation`, 'The relation is not valid or allowed for this resource.');
    const type = o.type as string;
    if (!AGG.includes(type)) e.add(`${k}.type`, `The selected ${k}.type is invalid.`);
    else if (['count', 'exists'].includes(type) && o.field !== undefined)
      e.add(`${k}.field`, `The ${k}.field field is prohibited when ${k}.type is ${type}.`);
    else if (!['count', 'exists'].includes(type) && (o.field === undefined || o.field === null))
      e.add(`${k}.field`, `The ${k}.field field is required when ${k}.type is ${type}.`);
    else if (o.field !== undefined && rel && (typeof o.field !== 'string' || !Object.hasOwn(RESOURCES[rel.target].fields, o.field)))
      e.add(`${k}.field`, `The selected ${k}.field is invalid.`);
    const filters = rel ? validateFilters(RESOURCES[rel.target], o.filters, `${k}.filters`, e) : undefined;
    return { relation: o.relation as string, type: type as never, field: o.field as string | undefined, alias: typeof o.alias === 'string' ? o.alias : undefined, filters };
  });
  return s;
}

/**
 * A structure condition on molecules: `{field: "canonical_smiles", operator: "substructure" |
 * "similar" | "exact", value: SMILES (or SMARTS, or an InChIKey for exact), threshold?,
 * use_chirality?, query_type?}`. Resolved by the chemistry threads (../structure/structure.ts).
 */
function validateStructureFilter(r: ResourceDef, f: Record<string, unknown>, out: FilterInput, key: string, e: Errors): FilterInput {
  const op = out.operator!;
  if (r.name !== 'molecules' || (out.field !== undefined && out.field !== 'canonical_smiles')) {
    e.add(`${key}.operator`, `The ${key}.operator ${op} applies to the canonical_smiles field of molecules only.`);
  }
  const v = f.value;
  if (typeof v !== 'string' || !v.trim()) e.add(`${key}.value`, `The ${key}.value field must be a structure (SMILES, SMARTS or InChIKey).`);
  else if (v.length > MAX_STRUCTURE_QUERY) e.add(`${key}.value`, `The ${key}.value field must not be greater than ${MAX_STRUCTURE_QUERY} characters.`);
  else out.value = v.trim();
  if (f.threshold !== undefined) {
    if (op !== 'similar') e.add(`${key}.threshold`, `The ${key}.threshold field is only allowed with the similar operator.`);
    else if (typeof f.threshold !== 'number' || !Number.isFinite(f.threshold) || f.threshold < 0 || f.threshold > 1) {
      e.add(`${key}.threshold`, `The ${key}.threshold field must be a number between 0 and 1.`);
    } else out.threshold = f.threshold;
  }
  if (f.use_chirality !== undefined) {
    if (typeof f.use_chirality !== 'boolean') e.add(`${key}.use_chirality`, `The ${key}.use_chirality field must be true or false.`);
    else out.use_chirality = f.use_chirality;
  }
  if (f.query_type !== undefined) {
    if (f.query_type !== 'smiles' && f.query_type !== 'smarts') e.add(`${key}.query_type`, `The selected ${key}.query_type is invalid.`);
    else out.query_type = f.query_type;
  }
  return out;
}
