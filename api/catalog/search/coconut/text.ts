/**
 * COCONUT's searches by text and identifiers, over the catalog store (both stores):
 *
 * - `text`: name, synonyms or identifier containing the query, ignoring case; active molecules
 *   first, then exact matches (name, synonym, identifier) before partial ones (name, synonym,
 *   identifier), then by id. No query: every molecule, active first, by annotation level.
 * - `identifier`: the identifier containing the query, ignoring case (a `CNP…` query is a
 *   prefix of the indexed identifiers: every identifier starts with `CNP`).
 * - `inchikey` / `partialinchikey`: the key containing the query; a whole key is an indexed
 *   equality, a 14-letter first block an indexed prefix range.
 * - `inchi`: the standard InChI containing the query; a query starting `InChI=` (or its
 *   version layer `1S/`) is an indexed prefix range.
 * - `molecularformula`: the formula, in the catalog's spelling (formula.ts), an indexed equality.
 * Those but `text` list active molecules first, then by annotation level.
 *
 * COCONUT's `ILIKE`/`LIKE` patterns read `%` and `_` in the query as wildcards; natprod reads the
 * query literally.
 */
import { prefixUpperBound } from '../lomkit/like.ts';
import type { CatalogStore, Filter } from '../../store/types.ts';
import { normalizeFormula } from './formula.ts';
import { listing, ordered, type Hits } from './listing.ts';
import type { CoconutRequest } from '../request.ts';

const EXTRA = ['active', 'is_placeholder', 'annotation_level'];

/** Molecules whose `field` starts with `prefix` (an indexed range), or null when no range can say so. */
function prefixRange(field: string, prefix: string): Filter | null {
  const upper = prefixUpperBound(prefix);
  return upper ? { [field]: { $gte: prefix, $lt: upper } } : null;
}

/** Substring search through `containing`; `caseSensitive` keeps the hits whose text holds the query as typed. */
async function substring(store: CatalogStore, req: CoconutRequest, field: string, caseSensitive: boolean): Promise<Hits> {
  const hits = await store.containing('molecules', [field], req.query, caseSensitive ? [...EXTRA, field] : EXTRA);
  const kept = caseSensitive ? hits.filter((h) => typeof h[field] === 'string' && (h[field] as string).includes(req.query)) : hits;
  return ordered(req, kept, 'annotation');
}

export async function textSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  if (!req.query) return listing(store, req, null);
  const hits = await store.containing('molecules', ['name', 'synonyms', 'identifier'], req.query, EXTRA);
  return ordered(req, hits, 'rank');
}

export async function identifierSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  const q = req.query.toUpperCase();
  const range = /^CNP[0-9.]*$/.test(q) ? prefixRange('identifier', q) : null;
  return range ? listing(store, req, range) : substring(store, req, 'identifier', false);
}

export async function inchikeySearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  const q = req.query;
  if (/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(q)) return listing(store, req, { standard_inchi_key: q });
  // A block of 14 letters only occurs as the first block of a key.
  if (/^[A-Z]{14}-?$/.test(q)) return listing(store, req, { standard_inchi_key: { $gte: `${q.slice(0, 14)}-`, $lt: `${q.slice(0, 14)}.` } });
  return substring(store, req, 'standard_inchi_key', true);
}

export async function inchiSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  const q = req.query;
  // "InChI=" only starts an InChI: a query that starts with it is a prefix.
  const prefix = q.startsWith('InChI=') ? q : /^1S?\//.test(q) ? `InChI=${q}` : null;
  const range = prefix ? prefixRange('standard_inchi', prefix) : null;
  return range ? listing(store, req, range) : substring(store, req, 'standard_inchi', true);
}

export function formulaSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  return listing(store, req, { 'properties.molecular_formula': normalizeFormula(req.query) });
}
