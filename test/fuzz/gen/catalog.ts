/**
 * Catalog requests: Lomkit searches with operator injection in values and keys, prototype keys,
 * deeply nested filters, includes and relations, a thousand filters, pathological `like`
 * patterns; detail, login, logout and registration; structure search; and writes (mutate, actions,
 * delete, register) that each carry at least one invalid part, so that every one must be refused
 * whole and leave the store as it was.
 */
import type { Rng } from '../prng.ts';
import type { Case, Context } from '../types.ts';
import { anyStructure, huge, randomAlphabet, validSmiles } from './structures.ts';
import { NUMBERS, hostileJson, hostileString, operatorObject, pct, pollutedJsonText } from './values.ts';

export type R = 'molecules' | 'organisms' | 'citations' | 'collections' | 'users';
export const RESOURCES: R[] = ['molecules', 'molecules', 'molecules', 'organisms', 'citations', 'collections', 'users'];
const BAD_RESOURCES = ['property', 'audits', 'tokens', 'meta', '__proto__', 'constructor', 'Molecules', 'molecules%00', '..', 'molecules/..', 'x'.repeat(300)];

const FIELDS: Record<R, string[]> = {
  molecules: ['id', 'name', 'canonical_smiles', 'identifier', 'standard_inchi_key', 'status', 'active', 'cas', 'annotation_level', 'has_stereo', 'murko_framework', 'iupac_name',
    'properties.molecular_weight', 'properties.alogp', 'properties.contains_sugar', 'properties.molecular_formula', 'organisms.name', 'citations.doi', 'collections.title', 'organisms.molecules.name'],
  organisms: ['id', 'name', 'iri', 'rank', 'molecule_count', 'molecules.name', 'molecules.properties.alogp'],
  citations: ['id', 'doi', 'title', 'authors', 'citation_text', 'molecules.identifier'],
  collections: ['id', 'title', 'description', 'identifier', 'url', 'molecules.status'],
  users: ['id', 'email', 'name', 'role'],
};
export const RELATIONS: Record<R, string[]> = {
  molecules: ['organisms', 'citations', 'collections', 'properties'],
  organisms: ['molecules'],
  citations: ['molecules'],
  collections: ['molecules'],
  users: [],
};
const OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'like', 'ilike', 'not like', 'in', 'not in', 'substructure', 'similar', 'exact'];
export const BAD_FIELDS = ['$where', '__proto__', 'constructor', 'password_hash', 'token_hash', 'fingerprints', 'properties', 'organism_ids', 'name.$', '', 'a'.repeat(500), 'properties.__proto__', 'molecules.molecules.molecules'];

/** `like` patterns that would backtrack forever in a naive regex translation. */
export function likePattern(rng: Rng): string {
  const n = rng.pick([10, 50, 200, 1000, 5000]);
  return rng.weighted<() => string>([
    [3, () => '%'.repeat(n)],
    [3, () => '%_'.repeat(n)],
    [2, () => '%' + '%_%'.repeat(n / 10) + 'x'],
    [2, () => Array.from({ length: n / 5 }, () => `%${rng.pick(['a', 'e', 'C', '1', '-'])}`).join('') + '%Z'],
    [1, () => '_'.repeat(n)],
    [1, () => '%a'.repeat(n / 2) + 'b%'],
    [1, () => '\\'.repeat(rng.int(1, 5)) + '%'],
    [1, () => '%.*+?^${}()|[]\\%'],
    [1, () => rng.pick(['%', '%%', '_', '\\%', '\\_', '\\', '%\\', 'C%', '%ol', '(?=', '[', '*', '(a+)+$'])],
    [1, () => '%' + 'é'.repeat(rng.int(1, 50)) + '%'],
  ])();
}

function filterValue(rng: Rng, field: string, op: string): unknown {
  if (op === 'like' || op === 'ilike' || op === 'not like') return rng.bool(0.85) ? likePattern(rng) : hostileJson(rng);
  if (op === 'in' || op === 'not in') return rng.bool(0.8) ? Array.from({ length: rng.size(2000) }, () => scalar(rng, field)) : hostileJson(rng);
  if (op === 'substructure' || op === 'similar' || op === 'exact') return rng.bool(0.9) ? anyStructure(rng) : hostileJson(rng);
  return rng.weighted<() => unknown>([[6, () => scalar(rng, field)], [2, () => operatorObject(rng)], [1, () => hostileJson(rng)], [1, () => null]])();
}

function scalar(rng: Rng, field: string): unknown {
  if (/^id$|count|level/.test(field)) return rng.weighted<() => unknown>([[4, () => rng.int(0, 100)], [1, () => rng.pick(NUMBERS)], [1, () => String(rng.int(0, 100))], [1, () => hostileString(rng)]])();
  if (/weight|alogp/.test(field)) return rng.weighted<() => unknown>([[3, () => rng.float() * 500], [1, () => rng.pick(NUMBERS)], [1, () => hostileString(rng)]])();
  if (/active|has_|contains/.test(field)) return rng.pick([true, false, 'true', '0', 1, 2, 'yes', '']);
  if (field === 'status') return rng.pick(['APPROVED', 'DRAFT', 'INREVIEW', 'REVOKED', 'approved', '']);
  if (field === 'canonical_smiles') return rng.bool() ? validSmiles(rng) : anyStructure(rng);
  return rng.weighted<() => unknown>([[3, () => randomAlphabet(rng, rng.size(30))], [2, () => hostileString(rng)], [1, () => rng.int(0, 9)]])();
}

export function filter(rng: Rng, r: R): Record<string, unknown> {
  const field = rng.bool(0.92) ? rng.pick(FIELDS[r]) : rng.pick(BAD_FIELDS);
  const op = rng.bool(0.93) ? (rng.bool(0.3) ? 'like' : rng.pick(OPERATORS)) : rng.pick(['==', 'LIKE', '$gt', 'regex', '', ' like', null, 5, {}]);
  const f: Record<string, unknown> = { field, operator: op, value: filterValue(rng, field, String(op)) };
  if (rng.bool(0.1)) f.type = rng.pick(['and', 'or', 'xor', '', null, 1]);
  if (rng.bool(0.05)) f.threshold = rng.pick([0, 0.7, 1, -1, 2, '0.5', null]);
  if (rng.bool(0.03)) f.use_chirality = rng.pick([true, 'yes', 1]);
  if (rng.bool(0.05)) f[rng.pick(['$where', 'extra', '$or'])] = hostileJson(rng);
  if (rng.bool(0.03)) delete f.field;
  return f;
}

/** `{nested: [{nested: ...}]}` `depth` deep (only one level is allowed). */
export function nestedFilters(r: R, depth: number): Record<string, unknown> {
  let f: Record<string, unknown> = { field: 'name', operator: 'like', value: '%a%' };
  for (let i = 0; i < depth; i++) f = { nested: [f, { field: 'id', operator: '>', value: 0 }], type: i % 2 ? 'and' : 'or' };
  return f;
}

/**
 * JSON text of includes `depth` deep along relations that loop (molecules → organisms →
 * molecules ...): written as text, since JSON.stringify itself runs out of stack on such depths.
 */
export function deepIncludesText(r: R, depth: number): string {
  if (r === 'users') return '[{"relation":"molecules"}]';
  const rels: string[] = [];
  let cur: R = r;
  for (let i = 0; i < depth; i++) {
    const relation: R = cur === 'molecules' ? 'organisms' : 'molecules';
    rels.push(relation);
    cur = relation === 'molecules' ? 'organisms' : 'molecules';
  }
  return rels.map((rel) => `[{"relation":"${rel}","limit":10,"includes":`).join('') + '[]' + '}]'.repeat(depth);
}

export function searchBody(rng: Rng, r: R, depth = 0): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (rng.bool(0.7)) s.filters = Array.from({ length: rng.size(6) }, () => filter(rng, r));
  if (rng.bool(0.08)) s.filters = [nestedFilters(r, rng.pick([1, 2, 50]))];
  if (rng.bool(0.03)) s.filters = Array.from({ length: 1000 }, () => filter(rng, r));
  if (rng.bool(0.02)) s.filters = Array.from({ length: 1000 }, (_, i) => ({ field: 'name', operator: 'like', value: `%${i}%` }));
  if (rng.bool(0.2)) s.sorts = Array.from({ length: rng.size(4) }, () => ({ field: rng.bool(0.9) ? rng.pick(FIELDS[r]) : rng.pick(BAD_FIELDS), direction: rng.pick(['asc', 'desc', 'ASC', '', 1, null]) }));
  if (rng.bool(0.15)) s.selects = Array.from({ length: rng.size(5) }, () => ({ field: rng.bool(0.9) ? rng.pick(FIELDS[r]) : rng.pick(BAD_FIELDS) }));
  if (rng.bool(0.1) && r === 'molecules') s.scopes = [{ name: rng.pick(['active', 'approved', 'draft', 'in_review', 'revoked', 'all', '__proto__']), ...(rng.bool(0.2) ? { parameters: hostileJson(rng) } : {}) }];
  if (rng.bool(0.2) && depth < 3 && RELATIONS[r].length) {
    s.includes = Array.from({ length: rng.int(1, 3) }, () => {
      const rel = rng.bool(0.9) ? rng.pick(RELATIONS[r]) : rng.pick(['nope', 'organisms.molecules', '__proto__', '']);
      const target = (rel === 'organisms' || rel === 'citations' || rel === 'collections' ? rel : 'molecules') as R;
      return { relation: rel, ...searchBody(rng, target, depth + 1) };
    });
  }
  if (rng.bool(0.08) && RELATIONS[r].length) {
    s.aggregates = [{ relation: rng.pick(RELATIONS[r]), type: rng.pick(['count', 'min', 'max', 'avg', 'sum', 'exists', 'median', '']), field: rng.pick([undefined, 'id', 'molecule_count', 'name', 'molecular_weight', '$gt']), alias: rng.pick([undefined, 'a', '__proto__', 'constructor']), ...(rng.bool(0.3) ? { filters: [filter(rng, 'organisms')] } : {}) }];
  }
  if (rng.bool(0.3)) s.limit = rng.weighted<unknown>([[4, rng.pick([10, 25, 50])], [1, rng.pick([0, -1, 1, 11, 1e9, 1.5, '10', null, 100])]]);
  if (rng.bool(0.2)) s.page = rng.weighted<unknown>([[3, rng.int(1, 5)], [1, rng.pick([0, -1, 1e9, 2 ** 53, 1.5, '2', null, 2 ** 53 + 2])]]);
  if (rng.bool(0.03)) s.text = { value: hostileString(rng) };
  if (rng.bool(0.03)) s.gates = rng.pick([['viewAny', 'update'], ['$where'], 'x', [1]]);
  if (rng.bool(0.03)) s.instructions = [{ name: 'odd-even-id' }];
  if (rng.bool(0.04)) s[rng.pick(['$where', '$or', 'extra'])] = hostileJson(rng);
  return s;
}

export const JSON_H = { 'content-type': 'application/json' };

export function auth(rng: Rng, ctx: Context, write = false): Record<string, string> {
  const role = rng.weighted<string>([[write ? 10 : 12, 'admin'], [2, 'curator'], [2, 'reader'], [1, 'none'], [1, 'junk']]);
  if (role === 'none') return {};
  if (role === 'junk') {
    return { authorization: rng.pick(['Bearer ', 'Bearer 1|x', 'Bearer 999999999999999999999|abc', 'Basic YWRtaW46YWRtaW4=', `Bearer ${'a'.repeat(8000)}`, `Bearer 1|${'A'.repeat(40)}`, 'Bearer -1|x', 'Bearer 0x1|x', 'Bearer 1.5|x', 'bearer', `Bearer ${ctx.tokens.admin}x`, `Bearer ${ctx.tokens.admin.replace(/^\d+/, '9999')}`]) };
  }
  return { authorization: `Bearer ${ctx.tokens[role as 'admin' | 'curator' | 'reader']}` };
}

function resource(rng: Rng): string {
  return rng.bool(0.97) ? rng.pick(RESOURCES) : rng.pick(BAD_RESOURCES);
}

export function catalogRead(rng: Rng, ctx: Context): Case {
  const r = resource(rng);
  const rr = (RESOURCES.includes(r as R) ? r : 'molecules') as R;
  return rng.weighted<() => Case>([
    [10, () => {
      const body = { search: searchBody(rng, rr) };
      const text = rng.bool(0.04) ? pollutedJsonText(rng, body) : JSON.stringify(rng.bool(0.03) ? { search: hostileJson(rng) } : body);
      return { target: 'catalog:search', label: `search ${r}`, req: { method: 'POST', path: `/api/${pct(r)}/search`, headers: { ...JSON_H, ...auth(rng, ctx) }, body: text } };
    }],
    [1, () => ({ target: 'catalog:search', label: `deep includes ${rr}`, req: { method: 'POST', path: `/api/${rr}/search`, headers: { ...JSON_H, ...auth(rng, ctx) }, body: `{"search":{"includes":${deepIncludesText(rr, rng.pick([50, 500, 5000, 20_000]))}}}` } })],
    [1, () => ({ target: 'catalog:search', label: `like-flood ${rr}`, req: { method: 'POST', path: `/api/${rr}/search`, headers: { ...JSON_H, ...auth(rng, ctx) }, body: JSON.stringify({ search: { filters: [{ field: rng.pick(FIELDS[rr]), operator: rng.pick(['like', 'not like']), value: likePattern(rng) }] } }) } })],
    [2, () => ({ target: 'catalog:read', label: `detail ${r}`, req: { method: rng.pick(['GET', 'GET', 'GET', 'HEAD', 'PUT', 'PATCH', 'POST']), path: `/api/${pct(r)}`, headers: auth(rng, ctx) } })],
    [1, () => ({ target: 'catalog:read', label: 'login', req: { method: 'POST', path: '/api/auth/login', headers: JSON_H, body: JSON.stringify(rng.weighted<unknown>([[3, { email: rng.pick([ctx.adminEmail, ctx.adminEmail.toUpperCase(), 'x@y.z', '']), password: rng.pick([hostileString(rng), 'wrong-password', ctx.adminPassword + ' ']) }], [1, { email: operatorObject(rng), password: operatorObject(rng) }], [1, hostileJson(rng)]])) } })],
    [1, () => ({ target: 'catalog:read', label: 'logout (junk token)', req: { method: 'GET', path: '/api/auth/logout', headers: rng.bool(0.5) ? ({} as Record<string, string>) : { authorization: `Bearer ${rng.int(0, 99999)}|${randomAlphabet(rng, 40)}` } } })],
    [4, () => structureSearch(rng)],
    [3, () => catalogExport(rng, ctx)],
  ])();
}

/** `POST /api/molecules/export` (streamed SMILES/SDF/CSV, or a job with `async`), and export job routes. */
export function catalogExport(rng: Rng, ctx: Context): Case {
  const headers = { ...JSON_H, ...auth(rng, ctx) };
  if (rng.bool(0.15)) {
    const id = rng.pick(['x', '0', '..', '%2e%2e%2fcatalog', '00000000-0000-0000-0000-000000000000', 'a'.repeat(300), '%00', '__proto__', '..%2F..%2Fetc%2Fpasswd']);
    return { target: 'catalog:export', label: 'export job id', req: { method: 'GET', path: `/api/exports/${id}${rng.bool() ? '/download' : ''}`, headers } };
  }
  const body: Record<string, unknown> = {};
  if (rng.bool(0.95)) body.format = rng.bool(0.85) ? rng.pick(['smi', 'sdf', 'csv']) : rng.pick(['SMI', 'json', 'xlsx', '', null, 1, ['csv']]);
  if (rng.bool(0.6)) {
    const s = rng.bool(0.8) ? { filters: Array.from({ length: rng.size(3) }, () => filter(rng, 'molecules')) } : searchBody(rng, 'molecules');
    if (rng.bool(0.5)) delete (s as Record<string, unknown>).limit;
    body.search = rng.bool(0.05) ? hostileJson(rng) : s;
  }
  if (rng.bool(0.3)) {
    const q = JSON.parse(String(structureSearch(rng).req.body ?? '{}')) as unknown;
    body.structure = q && typeof q === 'object' && !Array.isArray(q) ? Object.fromEntries(Object.entries(q as Record<string, unknown>).filter(([k]) => !['limit', 'page', 'count'].includes(k) || rng.bool(0.1))) : q;
  }
  if (rng.bool(0.3)) body.fields = rng.bool(0.7) ? Array.from({ length: rng.int(0, 5) }, () => rng.pick(['identifier', 'name', 'canonical_smiles', 'standard_inchi_key', 'molecular_formula', 'molecular_weight', 'similarity', 'password_hash', '$where', '__proto__', '', 'name'])) : hostileJson(rng);
  if (rng.bool(0.25)) body.async = rng.pick([true, false, 'true', 1, null]);
  if (rng.bool(0.05)) body[rng.pick(['limit', '$where', 'path', 'filename'])] = hostileJson(rng);
  return { target: 'catalog:export', label: `export ${String(body.format)}${body.async === true ? ' async' : ''}`, follow: true, req: { method: rng.bool(0.97) ? 'POST' : rng.pick(['GET', 'PUT', 'DELETE']), path: '/api/molecules/export', headers, body: rng.bool(0.03) ? pollutedJsonText(rng, body) : JSON.stringify(body) } };
}

export function structureSearch(rng: Rng): Case {
  const body: Record<string, unknown> = {};
  if (rng.bool(0.95)) body.type = rng.bool(0.9) ? rng.pick(['exact', 'substructure', 'similarity']) : rng.pick(['', 'SIMILARITY', 'regex', null, 1, {}]);
  if (rng.bool(0.97)) {
    body.query = rng.weighted<() => unknown>([
      [6, () => validSmiles(rng)],
      [6, () => anyStructure(rng)],
      [2, () => rng.pick(['[$([OH])]', '[$(*~*~*~*~*~*~*)]', '[$([#6]~[$([#6]~[$([#6]~[$([#6])])])])]', '*~*~*~*~*~*~*~*~*~*', '[!#1]', '[R]', '[r{3-}]', '[#6;R2;X3]', 'c:c', '*', '[*]'])],
      [1, () => '[$(' .repeat(rng.pick([3, 20, 200])) + 'C' + ')]'.repeat(rng.pick([3, 20, 200]))],
      [1, () => 'C'.repeat(rng.pick([121, 20_001]))],
      [1, () => rng.pick(['UHOVQNZJYSORNB-UHFFFAOYSA-N', 'REFJWTPEDVJJIY-UHFFFAOYSA-N', 'REFJWTPEDVJJIY', 'XXXXXXXXXXXXXX-XXXXXXXXXX-X'])],
      [1, () => huge(rng)],
      [1, () => hostileJson(rng)],
    ])();
  }
  if (rng.bool(0.3)) body.query_type = rng.pick(['smiles', 'smarts', 'SMARTS', 'inchi', '', null]);
  if (rng.bool(0.3)) body.threshold = rng.pick([0, 0.01, 0.5, 0.7, 1, -0.1, 1.1, '0.5', null, 1e308]);
  if (rng.bool(0.2)) body.use_chirality = rng.pick([true, false, 'true', 1]);
  if (rng.bool(0.3)) body.limit = rng.pick([1, 20, 100, 101, 0, -1, 1.5, '10', 1e9]);
  if (rng.bool(0.2)) body.page = rng.pick([1, 2, 50, 1_000_000, 1_000_001, 0, -1, 2 ** 53]);
  if (rng.bool(0.2)) body.count = rng.pick([true, false, 'true', 1]);
  if (rng.bool(0.05)) body[rng.pick(['$where', 'filters', '__proto__x', 'sort'])] = hostileJson(rng);
  const text = rng.bool(0.03) ? pollutedJsonText(rng, body) : JSON.stringify(rng.bool(0.03) ? hostileJson(rng) : body);
  return { target: 'catalog:structure-search', label: `${String(body.type)} search`, req: { method: 'POST', path: '/api/search', headers: JSON_H, body: text } };
}
