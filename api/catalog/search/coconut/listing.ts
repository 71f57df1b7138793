/**
 * What every COCONUT search type answers before its records are read: the ids of one page in
 * order, the total, and (structure types) a score per id. Also the two shared ways of getting
 * there: a store filter listed in COCONUT's order (`listing`), and a list of hits already in
 * hand, filtered by status and ordered here (`ordered`).
 */
import type { CatalogStore, Filter, SortKey } from '../../store/types.ts';
import type { CoconutRequest } from '../request.ts';

export interface Hits {
  total: number;
  ids: number[];
  /** Tanimoto per id (similarity and substructure searches). */
  scores?: Map<number, number>;
}

/** Results skipped before the page. */
export const startOf = (req: CoconutRequest) => req.offset + (req.page - 1) * req.limit;

/**
 * Conditions every search applies: no placeholders (COCONUT's `is_placeholder = FALSE`), and
 * `status` (`approved` = active molecules, `revoked` = inactive ones; COCONUT's action reads it,
 * its controller never passes it on).
 */
export function baseFilter(req: CoconutRequest): Filter[] {
  const out: Filter[] = [{ is_placeholder: { $ne: true } }];
  if (req.status === 'approved') out.push({ active: true });
  if (req.status === 'revoked') out.push({ active: false });
  return out;
}

/** Every filter given (nulls and empty ones left out), as one `$and` (or the only one as it is). */
export const allOf = (parts: (Filter | null)[]): Filter => {
  const list = parts.filter((p): p is Filter => !!p && Object.keys(p).length > 0);
  return list.length === 1 ? list[0] : { $and: list };
};

const key = (field: string, dir: 1 | -1): SortKey => ({ field, dir, nulls: dir === 1 ? 'last' : 'first' });

/**
 * COCONUT's orders: `annotation` = active first, then by annotation level (highest first), the
 * order of its identifier, InChI, InChIKey, formula and tag searches; `active` = active first
 * (its filter search). Ties by id. `recent` (asked for): newest first, by id (natprod keeps no
 * creation time; ids grow with it). COCONUT accepts `recent` but its order never changes.
 */
export function sortFor(req: CoconutRequest, order: 'annotation' | 'active'): SortKey[] {
  if (req.sort === 'recent') return [key('id', -1)];
  return order === 'annotation' ? [key('active', -1), key('annotation_level', -1), key('id', 1)] : [key('active', -1), key('id', 1)];
}

/** One page of the molecules matching `filter` (plus the base conditions), in COCONUT's order. */
export async function listing(store: CatalogStore, req: CoconutRequest, filter: Filter | null, order: 'annotation' | 'active' = 'annotation'): Promise<Hits> {
  const f = allOf([...baseFilter(req), filter]);
  const [total, docs] = await Promise.all([
    store.count('molecules', f),
    store.find('molecules', f, { sort: sortFor(req, order), skip: startOf(req), limit: req.limit, fields: ['id'] }),
  ]);
  return { total, ids: docs.map((d) => d.id) };
}

export interface Candidate {
  id: number;
  active?: unknown;
  is_placeholder?: unknown;
  annotation_level?: unknown;
  /** Relevance, lower first (text search). */
  rank?: number;
  score?: number;
}

/** Keeps what the base conditions allow (read from the candidates' own fields). */
export function allowed(req: CoconutRequest, c: Candidate): boolean {
  if (c.is_placeholder === true) return false;
  if (req.status === 'approved') return c.active === true;
  if (req.status === 'revoked') return c.active === false;
  return true;
}

const level = (c: Candidate) => (typeof c.annotation_level === 'number' ? c.annotation_level : -Infinity);

/**
 * A page of candidates already found (text search, substructure hits ...): kept by `allowed`,
 * ordered by `order` (`rank`: active first, then relevance; `annotation`; `given`: as they come),
 * or newest first for `recent`.
 */
export function ordered(req: CoconutRequest, all: Candidate[], order: 'rank' | 'annotation' | 'given'): Hits {
  const kept = all.filter((c) => allowed(req, c));
  const active = (c: Candidate) => (c.active === true ? 0 : 1);
  if (req.sort === 'recent') kept.sort((a, b) => b.id - a.id);
  else if (order === 'rank') kept.sort((a, b) => active(a) - active(b) || (a.rank ?? 0) - (b.rank ?? 0) || a.id - b.id);
  else if (order === 'annotation') kept.sort((a, b) => active(a) - active(b) || level(b) - level(a) || a.id - b.id);
  const start = startOf(req);
  const page = kept.slice(start, start + req.limit);
  const scores = page.some((c) => c.score !== undefined) ? new Map(page.map((c) => [c.id, c.score ?? 0])) : undefined;
  return { total: kept.length, ids: page.map((c) => c.id), scores };
}
