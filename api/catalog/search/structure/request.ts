/**
 * Validation of `POST /api/search` and of the `structure` part of an export: Laravel-shaped
 * 422s naming each problem, unknown keys refused (they are typos or injection attempts).
 */
import type { StructureQuery } from './structure.ts';
import { Errors } from '../../schema/types.ts';

export interface SearchRequest extends StructureQuery {
  page: number;
  limit: number;
  count: boolean;
}

export const SEARCH_LIMIT_MAX = 100;
/** Longest structure query text (a SMILES, SMARTS or molblock), in every form of search. */
export const MAX_STRUCTURE_QUERY = 20_000;
const TYPES = ['exact', 'substructure', 'similarity'] as const;
const QUERY_KEYS = ['type', 'query', 'query_type', 'threshold', 'use_chirality'];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The structure query fields of `body` (prefix: key prefix in messages, e.g. `structure.`). */
export function validateStructure(body: unknown, e: Errors, prefix = '', extraKeys: string[] = []): StructureQuery | undefined {
  if (!isObj(body)) {
    e.add(prefix ? prefix.slice(0, -1) : 'body', `The ${prefix ? prefix.slice(0, -1) : 'request body'} must be an object.`);
    return undefined;
  }
  for (const k of Object.keys(body)) if (![...QUERY_KEYS, ...extraKeys].includes(k)) e.add(prefix + k, `The ${prefix + k} field is prohibited.`);
  const type = body.type;
  if (type === undefined) e.add(`${prefix}type`, `The ${prefix}type field is required.`);
  else if (!TYPES.includes(type as never)) e.add(`${prefix}type`, `The selected ${prefix}type is invalid: use exact, substructure or similarity.`);
  const q = body.query;
  if (typeof q !== 'string' || !q.trim()) e.add(`${prefix}query`, `The ${prefix}query field is required and must be a SMILES, SMARTS or InChIKey string.`);
  else if (q.length > MAX_STRUCTURE_QUERY) e.add(`${prefix}query`, `The ${prefix}query field must not be greater than ${MAX_STRUCTURE_QUERY} characters.`);
  const qt = body.query_type;
  if (qt !== undefined && qt !== 'smiles' && qt !== 'smarts') e.add(`${prefix}query_type`, `The selected ${prefix}query_type is invalid: use smiles or smarts.`);
  if (qt === 'smarts' && type !== 'substructure') e.add(`${prefix}query_type`, `A SMARTS query is only allowed with type substructure.`);
  const t = body.threshold;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1)) e.add(`${prefix}threshold`, `The ${prefix}threshold field must be a number between 0 and 1.`);
  if (t !== undefined && type !== 'similarity') e.add(`${prefix}threshold`, `The ${prefix}threshold field is only allowed with type similarity.`);
  const uc = body.use_chirality;
  if (uc !== undefined && typeof uc !== 'boolean') e.add(`${prefix}use_chirality`, `The ${prefix}use_chirality field must be true or false.`);
  return {
    type: type as StructureQuery['type'],
    query: typeof q === 'string' ? q.trim() : '',
    query_type: qt as StructureQuery['query_type'],
    threshold: typeof t === 'number' ? t : undefined,
    use_chirality: typeof uc === 'boolean' ? uc : undefined,
  };
}

function positiveInt(v: unknown, key: string, def: number, max: number, e: Errors): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    e.add(key, `The ${key} field must be an integer of at least 1.`);
    return def;
  }
  if (v > max) {
    e.add(key, `The ${key} field must not be greater than ${max}.`);
    return def;
  }
  return v;
}

export function validateSearchRequest(body: unknown): SearchRequest {
  const e = new Errors();
  const q = validateStructure(body, e, '', ['limit', 'page', 'count']);
  const b = isObj(body) ? body : {};
  const limit = positiveInt(b.limit, 'limit', 20, SEARCH_LIMIT_MAX, e);
  const page = positiveInt(b.page, 'page', 1, 1_000_000, e);
  if (b.count !== undefined && typeof b.count !== 'boolean') e.add('count', 'The count field must be true or false.');
  e.throwIfAny();
  return { ...q!, limit, page, count: b.count === true };
}
