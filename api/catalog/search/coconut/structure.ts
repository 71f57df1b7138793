/**
 * COCONUT's structure searches on natprod's structure-search index (../structure/structure.ts):
 * - `smiles` / `substructure`: the molecules holding the query, the exact matches first, then by
 *   Tanimoto (Morgan) to the query, best first; each with its `similarity`;
 * - `exact`: the same structure (whole InChIKey; `use_chirality: false`: any stereoisomer);
 * - `similarity`: Tanimoto at least `threshold` (default 0.5, the RDKit cartridge's default that
 *   COCONUT's `%` operator uses), best first, each with its `similarity`.
 * With the defaults (all statuses, relevance) and no placeholder molecule in the catalog, the
 * index answers the page; otherwise every hit is listed and filtered or ordered here.
 */
import type { CatalogStore } from '../../store/types.ts';
import type { StructureSearch } from '../structure/structure.ts';
import { ordered, startOf, type Candidate, type Hits } from './listing.ts';
import type { CoconutRequest } from '../request.ts';

export const COCONUT_SIMILARITY_THRESHOLD = 0.5;

/** Adds `active` and `is_placeholder` to hits (for the status filter). */
async function withFlags(store: CatalogStore, hits: Candidate[]): Promise<Candidate[]> {
  if (!hits.length) return hits;
  const docs = await store.find('molecules', { id: { $in: hits.map((h) => h.id) } }, { fields: ['active', 'is_placeholder'] });
  const flags = new Map(docs.map((d) => [d.id, d]));
  return hits.filter((h) => flags.has(h.id)).map((h) => ({ ...h, active: flags.get(h.id)!.active, is_placeholder: flags.get(h.id)!.is_placeholder }));
}

export async function structureTypesSearch(structure: StructureSearch, req: CoconutRequest): Promise<Hits> {
  const base = { query: req.query, query_type: req.query_type, use_chirality: req.use_chirality };
  const start = startOf(req);
  // Placeholders are never listed: the index does not know them, so the hits are checked when there are any.
  const paged = req.status === 'all' && req.sort === 'relevance' && (await structure.store.count('molecules', { is_placeholder: true })) === 0;
  if (req.type === 'exact') {
    const ids = await structure.exactIds(req.query, req.use_chirality ?? true, req.query_type);
    return ordered(req, await withFlags(structure.store, ids.map((id) => ({ id }))), 'given');
  }
  if (req.type === 'similarity') {
    const q = { ...base, type: 'similarity' as const, threshold: req.threshold ?? COCONUT_SIMILARITY_THRESHOLD };
    if (paged) {
      const hits = await structure.page(q, start, req.limit);
      return { total: hits.total ?? 0, ids: hits.ids, scores: new Map(hits.ids.map((id, i) => [id, hits.scores![i]])) };
    }
    const all = await structure.allIds(q);
    return ordered(req, await withFlags(structure.store, all.ids.map((id, i) => ({ id, score: all.scores?.[i] }))), 'given');
  }
  const q = { ...base, type: 'substructure' as const };
  if (paged) {
    const hits = await structure.ranked(q, start, req.limit);
    return { total: hits.total ?? 0, ids: hits.ids, scores: hits.scores ? new Map(hits.ids.map((id, i) => [id, hits.scores![i]])) : undefined };
  }
  const all = await structure.ranked(q, 0, 0);
  return ordered(req, await withFlags(structure.store, all.ids.map((id, i) => ({ id, score: all.scores?.[i] }))), 'given');
}
