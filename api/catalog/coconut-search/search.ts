/**
 * COCONUT's public search, `POST /api/search`: the request (request.ts) → the search of its type
 * → one page of records (rows.ts) in Laravel's paginator (paginator.ts), answered as
 * `{data: <paginator>}` like COCONUT's SearchController. Without a query every type lists the
 * catalog (COCONUT's behaviour), except the structure types, which need one (422). natprod's
 * type `mass` (MS dereplication) is answered by api/catalog/derep/mass-answer.ts.
 *
 * A query whose type was detected as SMILES but that RDKit cannot read (`carbonic` passes
 * COCONUT's SMILES pattern) is searched as text instead of failing.
 */
import { AppError } from '../../../shared/errors.ts';
import { massAnswer, type MassAnswer } from '../derep/mass-answer.ts';
import type { CatalogStore } from '../store/types.ts';
import type { StructureSearch } from '../structure/structure.ts';
import { Errors } from '../schema/types.ts';
import { FilterSyntaxError, parseFilters, type ParsedFilters } from './filter-language.ts';
import { filtersToQuery } from './filter-query.ts';
import { listing, type Hits } from './listing.ts';
import { paginate, type LaravelPaginator } from './paginator.ts';
import { readCoconutRequest, STRUCTURE_TYPES, type CoconutRequest } from './request.ts';
import { coconutRow, ROW_FIELDS, type CoconutRow } from './rows.ts';
import { structureSearch } from './structure-queries.ts';
import { tagSearch } from './tag-queries.ts';
import { formulaSearch, identifierSearch, inchikeySearch, inchiSearch, textSearch } from './text-queries.ts';

export interface CoconutSearchDeps {
  store: CatalogStore;
  structure: StructureSearch;
}

async function filterSearch(store: CatalogStore, req: CoconutRequest): Promise<Hits> {
  let parsed: ParsedFilters = [];
  try {
    parsed = parseFilters(req.query);
  } catch (e) {
    if (!(e instanceof FilterSyntaxError)) throw e;
    const errors = new Errors();
    errors.add('query', e.message);
    errors.throwIfAny();
  }
  return listing(store, req, await filtersToQuery(parsed, store), 'active');
}

async function hitsOf(deps: CoconutSearchDeps, req: CoconutRequest): Promise<Hits> {
  const { store } = deps;
  // Without a query COCONUT lists the catalog; natprod's taxon tag type needs its taxon (422).
  const taxon = req.type === 'tags' && req.tagType === 'taxon';
  if (!req.query && !STRUCTURE_TYPES.includes(req.type) && !taxon) return listing(store, req, null);
  switch (req.type) {
    case 'text':
      return textSearch(store, req);
    case 'identifier':
      return identifierSearch(store, req);
    case 'inchikey':
    case 'partialinchikey':
      return inchikeySearch(store, req);
    case 'inchi':
      return inchiSearch(store, req);
    case 'molecularformula':
      return formulaSearch(store, req);
    case 'tags':
      return tagSearch(store, req);
    case 'filters':
      return filterSearch(store, req);
    default:
      try {
        return await structureSearch(deps.structure, req);
      } catch (e) {
        if (req.detected && AppError.from(e)?.status === 422) return textSearch(store, { ...req, type: 'text' });
        throw e;
      }
  }
}

/** The answer to a COCONUT search body; `path` is the URL path (absolute when known) of the page links. */
export async function coconutSearch(deps: CoconutSearchDeps, body: unknown, path = '/api/search'): Promise<{ data: LaravelPaginator<CoconutRow> } | MassAnswer> {
  const req = readCoconutRequest(body);
  if (req.type === 'mass') return massAnswer(deps.store, req, path);
  const hits = await hitsOf(deps, req);
  const docs = hits.ids.length ? await deps.store.find('molecules', { id: { $in: hits.ids } }, { fields: ROW_FIELDS }) : [];
  const byId = new Map(docs.map((d) => [d.id, d]));
  const rows = hits.ids.filter((id) => byId.has(id)).map((id) => coconutRow(byId.get(id)!, hits.scores?.get(id)));
  return { data: paginate({ rows, total: hits.total, perPage: req.limit, page: req.page, offset: req.offset, path }) };
}
