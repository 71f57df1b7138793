/**
 * COCONUT's tag search (`type: "tags"`), by `tagType`:
 * - `dataSource`: the molecules of the collection with this title (COCONUT: exact title; natprod
 *   then also a title or identifier equal ignoring case, when no title matches exactly);
 * - `organisms`: the molecules of any organism whose name contains one of the comma-separated
 *   terms, ignoring case;
 * - `citations`: the same with citations, by DOI or title;
 * - `taxon` (natprod's own): the molecules of every organism under the taxon, at any rank, its
 *   descendants included: the taxon equals (ignoring case) the organism's name or one of its
 *   lineage fields (api/catalog/taxonomy/taxon.ts). One taxon per query, not a list.
 * Active molecules first, then by annotation level. COCONUT's other tag types are its generic
 * molecule tags (Spatie tags); natprod keeps none, and says so (422) rather than find nothing.
 * An empty term (`a,,b`) is skipped (COCONUT's `ILIKE '%%'` made it match every organism).
 */
import type { CatalogStore } from '../../store/types.ts';
import { Errors } from '../../schema/types.ts';
import { allOf, baseFilter, listing, sortFor, startOf, type Hits } from './listing.ts';
import { checkTaxon, moleculesUnderTaxon } from '../../taxonomy/taxon.ts';
import type { CoconutRequest } from '../request.ts';

export const TAG_TYPES = ['dataSource', 'organisms', 'citations', 'taxon'];

async function collectionIds(store: CatalogStore, title: string): Promise<number[]> {
  const exact = await store.find('collections', { title }, { fields: ['id'] });
  if (exact.length) return [exact[0].id];
  const t = title.toLowerCase();
  const all = await store.find('collections', {}, { fields: ['title', 'identifier'] });
  return all.filter((c) => String(c.title ?? '').toLowerCase() === t || String(c.identifier ?? '').toLowerCase() === t).map((c) => c.id);
}

async function linkedIds(store: CatalogStore, coll: 'organisms' | 'citations', query: string): Promise<number[]> {
  const terms = query.split(',').map((s) => s.trim()).filter(Boolean);
  const fields = coll === 'organisms' ? ['name'] : ['doi', 'title'];
  const ids = new Set<number>();
  for (const term of terms) for (const h of await store.containing(coll, fields, term)) ids.add(h.id);
  return [...ids];
}

export async function tagSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  switch (req.tagType) {
    case 'dataSource':
      return listing(store, req, { collection_ids: { $in: await collectionIds(store, req.query) } });
    case 'organisms':
      return listing(store, req, { organism_ids: { $in: await linkedIds(store, 'organisms', req.query) } });
    case 'citations':
      return listing(store, req, { citation_ids: { $in: await linkedIds(store, 'citations', req.query) } });
    case 'taxon':
      // as `listing` would with the taxon's filter, from the store's taxon index where it has one
      return moleculesUnderTaxon(store, checkTaxon(req.query, 'query'), allOf(baseFilter(req)), { sort: sortFor(req, 'annotation'), skip: startOf(req), limit: req.limit });
    default: {
      const e = new Errors();
      e.add(
        'tagType',
        req.tagType
          ? `The tag type "${req.tagType}" is not available: natprod keeps no generic molecule tags; use dataSource, organisms, citations or taxon.`
          : 'The tag type field is required with type tags: dataSource, organisms, citations or taxon.',
      );
      e.throwIfAny();
      throw new Error('unreachable');
    }
  }
}
