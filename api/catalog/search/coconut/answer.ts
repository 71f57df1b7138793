/**
 * COCONUT's public search, `POST /api/search`: the request (../request.ts) → the search of its
 * type (one answerer per type, the table below) → one page of records in Laravel's paginator
 * (../page.ts), answered as `{data: <paginator>}` like COCONUT's SearchController. Without a
 * query every type lists the catalog (COCONUT's behaviour), except the structure types, which
 * need one (422). natprod's type `mass` (MS dereplication) has an answer of its own
 * (../mass/answer.ts).
 *
 * A query whose type was detected as SMILES but that RDKit cannot read (`carbonic` passes
 * COCONUT's SMILES pattern) is searched as text instead of failing.
 */
import { AppError } from '../../../../shared/errors.ts';
import { massAnswer, type MassAnswer } from '../mass/answer.ts';
import type { CatalogStore } from '../../store/types.ts';
import type { StructureSearch } from '../structure/structure.ts';
import { coconutRow, paginate, ROW_FIELDS, type CoconutRow, type LaravelPaginator } from '../page.ts';
import { readCoconutRequest, STRUCTURE_TYPES, type CoconutRequest, type SearchType } from '../request.ts';
import { filterSearch } from './filter-query.ts';
import { listing, type Hits } from './listing.ts';
import { structureTypesSearch } from './structure.ts';
import { tagSearch } from './tags.ts';
import { formulaSearch, identifierSearch, inchikeySearch, inchiSearch, textSearch } from './text.ts';

export interface CoconutSearchDeps {
  store: CatalogStore;
  structure: StructureSearch;
}

type Answerer = (deps: CoconutSearchDeps, req: CoconutRequest) => Promise<Hits>;

/** A structure type's hits; a query only detected as SMILES that does not read as one is searched as text. */
const structureOrText: Answerer = async (deps, req) => {
  try {
    return await structureTypesSearch(deps.structure, req);
  } catch (e) {
    if (req.detected && AppError.from(e)?.status === 422) return textSearch(deps.store, { ...req, type: 'text' });
    throw e;
  }
};

/**
 * The answerer of each search type but `mass`. Keyed by SearchType, which is read off the lists of
 * types a request may name (../request.ts): a type added there without an answerer here fails to
 * compile.
 */
const ANSWERERS: { [T in Exclude<SearchType, 'mass'>]: Answerer } = {
  text: (d, req) => textSearch(d.store, req),
  identifier: (d, req) => identifierSearch(d.store, req),
  inchikey: (d, req) => inchikeySearch(d.store, req),
  partialinchikey: (d, req) => inchikeySearch(d.store, req),
  inchi: (d, req) => inchiSearch(d.store, req),
  molecularformula: (d, req) => formulaSearch(d.store, req),
  tags: (d, req) => tagSearch(d.store, req),
  filters: (d, req) => filterSearch(d.store, req),
  smiles: structureOrText,
  substructure: structureOrText,
  exact: structureOrText,
  similarity: structureOrText,
};

function hitsOf(deps: CoconutSearchDeps, req: CoconutRequest & { type: keyof typeof ANSWERERS }): Promise<Hits> {
  // Without a query COCONUT lists the catalog; natprod's taxon tag type needs its taxon (422).
  const taxon = req.type === 'tags' && req.tagType === 'taxon';
  if (!req.query && !STRUCTURE_TYPES.includes(req.type) && !taxon) return listing(deps.store, req, null);
  return ANSWERERS[req.type](deps, req);
}

/** The answer to a COCONUT search body; `path` is the URL path (absolute when known) of the page links. */
export async function coconutSearch(deps: CoconutSearchDeps, body: unknown, path = '/api/search'): Promise<{ data: LaravelPaginator<CoconutRow> } | MassAnswer> {
  const req = readCoconutRequest(body);
  if (req.type === 'mass') return massAnswer(deps.store, req, path);
  const hits = await hitsOf(deps, { ...req, type: req.type });
  const docs = hits.ids.length ? await deps.store.find('molecules', { id: { $in: hits.ids } }, { fields: ROW_FIELDS }) : [];
  const byId = new Map(docs.map((d) => [d.id, d]));
  const rows = hits.ids.filter((id) => byId.has(id)).map((id) => coconutRow(byId.get(id)!, hits.scores?.get(id)));
  return { data: paginate({ rows, total: hits.total, perPage: req.limit, page: req.page, offset: req.offset, path }) };
}
