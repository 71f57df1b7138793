/**
 * The body of COCONUT's `POST /api/search` (its SearchController's rules), read and checked:
 * `query` (a string, control characters removed, trimmed, at most 1,000 characters; a structure
 * query up to 20,000, for molblocks), `type`, `tagType` (letters and `_`), `limit` (1-100,
 * default 24), `page` (≥ 1), `offset` (0-100), `sort` (`recent` or `relevance`) and `status`
 * (`all`, `approved`, `revoked`), plus natprod's structure options `query_type`, `use_chirality`,
 * `threshold` and `count`. Integers may come as numeric strings, as Laravel accepts them. Every
 * problem is a Laravel 422 naming its field; unknown fields are refused (a typo or an injection
 * attempt should not pass silently), and a value is never anything but a string, number or boolean.
 *
 * natprod's type `mass` (MS dereplication, mass/) takes its own keys `adducts`,
 * `tolerance_ppm`, `tolerance_da`, `taxon`, refused with any other type, and a `query` that is an
 * m/z value or a list of them (read by `readMassRequest`).
 */
import { Errors } from '../schema/types.ts';
import { MAX_STRUCTURE_QUERY } from './structure/request.ts';
import { detectType } from './detect.ts';
import { MASS_KEYS, readMassRequest, type MassRequest } from './mass/mass-search.ts';

/** COCONUT's controller accepts these types. */
export const COCONUT_TYPES = ['text', 'smiles', 'inchi', 'inchikey', 'substructure', 'exact', 'similarity', 'tags', 'filters'] as const;
/** Types COCONUT's action knows but its controller refuses; natprod accepts them (COCONUT's misspelling too). */
export const EXTRA_TYPES = ['identifier', 'molecularformula', 'partialinchikey', 'parttialinchikey', 'mass'] as const;

/** Spellings read as another type: COCONUT's action misspells one of its own. */
const ALIASES = { parttialinchikey: 'partialinchikey' } as const;

/**
 * Every type a request may ask for, under the name that answers it. It is read off the two lists
 * above, so a type added to them has no answer until coconut/answer.ts gives it one: the table
 * there is keyed by this type and fails to compile without it.
 */
export type SearchType = Exclude<(typeof COCONUT_TYPES)[number] | (typeof EXTRA_TYPES)[number], keyof typeof ALIASES>;
export const STRUCTURE_TYPES: readonly SearchType[] = ['smiles', 'substructure', 'exact', 'similarity'];

export interface CoconutRequest {
  /** Sanitized; '' when absent. */
  query: string;
  type: SearchType;
  /** The type was detected from the query (no `type` given). */
  detected: boolean;
  tagType: string | null;
  limit: number;
  page: number;
  offset: number;
  sort: 'relevance' | 'recent';
  status: 'all' | 'approved' | 'revoked';
  query_type?: 'smiles' | 'smarts';
  use_chirality?: boolean;
  threshold?: number;
  /** Type `mass`: the m/z values, adducts, tolerance and taxon. */
  mass?: MassRequest;
}

export const QUERY_MAX = 1000;
export const LIMIT_DEFAULT = 24;
export const LIMIT_MAX = 100;
const KEYS = ['query', 'type', 'tagType', 'limit', 'sort', 'page', 'offset', 'status', 'query_type', 'use_chirality', 'threshold', 'count'];
/** Fields only COCONUT's form of the request has: with one of them, `count` cannot ask for natprod's answer. */
export const COCONUT_ONLY_KEYS = ['tagType', 'sort', 'offset', 'status'];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Whether a body asks for natprod's own structure-search answer (the flat page, fast first page
 * without a total): one of its three types, natprod's `count` field (true or false), which COCONUT
 * never sends, and none of COCONUT's own fields. Every other body is COCONUT's request and gets
 * COCONUT's answer, so a COCONUT client's `{type: "substructure", query}` works unchanged.
 */
export function isNatprodForm(body: unknown): boolean {
  return isObj(body) && ['exact', 'substructure', 'similarity'].includes(body.type as string) && 'count' in body && !COCONUT_ONLY_KEYS.some((k) => k in body);
}

/** COCONUT's sanitizer: control characters (not tab, CR, LF) removed, then trimmed. */
export function sanitizeQuery(q: string): string {
  return q.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/g, '').trim();
}

function integer(body: Record<string, unknown>, key: string, e: Errors, min: number, max: number | null, def: number): number {
  const v = body[key];
  if (absent(v)) return def;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[+-]?(0|[1-9]\d*)$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) {
    e.add(key, `The ${key} field must be an integer.`);
    return def;
  }
  if (n < min) e.add(key, `The ${key} field must be at least ${min}.`);
  else if (max !== null && n > max) e.add(key, `The ${key} field must not be greater than ${max}.`);
  else return n;
  return def;
}

function oneOf<T extends string>(body: Record<string, unknown>, key: string, allowed: readonly T[], e: Errors): T | undefined {
  const v = body[key];
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || !allowed.includes(v as T)) {
    e.add(key, `The selected ${key} is invalid: use ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}.`);
    return undefined;
  }
  return v as T;
}

export function readCoconutRequest(body: unknown): CoconutRequest {
  const e = new Errors();
  if (body === undefined || body === null) body = {};
  if (!isObj(body)) {
    e.add('body', 'The request body must be a JSON object.');
    e.throwIfAny();
  }
  const b = body as Record<string, unknown>;
  const explicit = oneOf(b, 'type', [...COCONUT_TYPES, ...EXTRA_TYPES], e);
  if (explicit === 'mass') {
    for (const k of Object.keys(b)) if (!KEYS.includes(k) && !(MASS_KEYS as readonly string[]).includes(k)) e.add(k, `The ${k} field is prohibited.`);
    const mass = readMassRequest(b, e);
    const limit = integer(b, 'limit', e, 1, LIMIT_MAX, LIMIT_DEFAULT);
    const page = integer(b, 'page', e, 1, 1_000_000, 1);
    e.throwIfAny();
    return { query: '', type: 'mass', detected: false, tagType: null, limit, page, offset: 0, sort: 'relevance', status: 'all', mass };
  }
  for (const k of Object.keys(b))
    if ((MASS_KEYS as readonly string[]).includes(k)) e.add(k, `The ${k} field is only allowed with type mass.`);
    else if (!KEYS.includes(k)) e.add(k, `The ${k} field is prohibited.`);
  let query = '';
  if (!absent(b.query)) {
    if (typeof b.query !== 'string') e.add('query', 'The query field must be a string.');
    else query = sanitizeQuery(b.query);
  }
  const structural = (explicit && STRUCTURE_TYPES.includes(explicit as SearchType)) || /^M {2}END$/m.test(query);
  const max = structural ? MAX_STRUCTURE_QUERY : QUERY_MAX;
  if (query.length > max) e.add('query', `The query field must not be greater than ${max} characters.`);

  let tagType: string | null = null;
  if (!absent(b.tagType)) {
    if (typeof b.tagType !== 'string') e.add('tagType', 'The tag type field must be a string.');
    else if (b.tagType.length > 100) e.add('tagType', 'The tag type field must not be greater than 100 characters.');
    else if (!/^[a-zA-Z_]+$/.test(b.tagType)) e.add('tagType', 'The tag type field format is invalid: letters and _ only.');
    else tagType = b.tagType;
  }
  const limit = integer(b, 'limit', e, 1, LIMIT_MAX, LIMIT_DEFAULT);
  const page = integer(b, 'page', e, 1, 1_000_000, 1);
  const offset = integer(b, 'offset', e, 0, 100, 0);
  const sort = oneOf(b, 'sort', ['recent', 'relevance'] as const, e) ?? 'relevance';
  const status = oneOf(b, 'status', ['all', 'approved', 'revoked'] as const, e) ?? 'all';

  const qt = oneOf(b, 'query_type', ['smiles', 'smarts'] as const, e);
  const uc = b.use_chirality;
  if (uc !== undefined && typeof uc !== 'boolean') e.add('use_chirality', 'The use_chirality field must be true or false.');
  const t = b.threshold;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1)) e.add('threshold', 'The threshold field must be a number between 0 and 1.');
  if (b.count !== undefined && typeof b.count !== 'boolean') e.add('count', 'The count field must be true or false.');

  let type: SearchType;
  if (explicit) type = explicit in ALIASES ? ALIASES[explicit as keyof typeof ALIASES] : (explicit as SearchType);
  else type = query ? detectType(query) : 'text';
  if (t !== undefined && type !== 'similarity') e.add('threshold', 'The threshold field is only allowed with type similarity.');
  if (qt === 'smarts' && !['smiles', 'substructure'].includes(type)) e.add('query_type', 'A SMARTS query is only allowed with type substructure (or smiles).');
  if (STRUCTURE_TYPES.includes(type) && !query) e.add('query', `The query field is required with type ${type}: a SMILES, SMARTS, molblock or InChIKey.`);
  e.throwIfAny();
  return {
    query,
    type,
    detected: !explicit,
    tagType,
    limit,
    page,
    offset,
    sort,
    status,
    query_type: qt,
    use_chirality: typeof uc === 'boolean' ? uc : undefined,
    threshold: typeof t === 'number' ? t : undefined,
  };
}
