/**
 * natprod's own structure search on `POST /api/search` (`type` exact, substructure or similarity
 * with natprod's `count` field, told apart by ../request.ts): the flat paginator with the molecule records of
 * `/api/molecules/search`, with all of Laravel's paginator fields, plus `has_more` and `meta`;
 * similarity hits carry their `similarity`. Without `count` the first page comes without a total.
 */
import { molecules, stored } from '../../schema/resources.ts';
import { serialize } from '../lomkit/search.ts';
import { paginate } from '../page.ts';
import { validateSearchRequest } from './request.ts';
import { docsInOrder, type StructureSearch } from './structure.ts';

/** Path of the page links: relative, so the MCP tool answers the same document. */
const PATH = '/api/search';
/** What a record reads (`serialize`): the molecule's declared fields, under their stored names. */
const RECORD_FIELDS = Object.keys(molecules.fields).map((f) => stored(molecules, f));

export async function structureAnswer(structure: StructureSearch, body: unknown) {
  const req = validateSearchRequest(body);
  const offset = (req.page - 1) * req.limit;
  const hits = await structure.page(req, offset, req.limit, req.count);
  const docs = await docsInOrder(structure.store, hits.ids, RECORD_FIELDS);
  const data = docs.map((d) => {
    const rec = serialize(molecules, d);
    if (hits.scores) rec.similarity = hits.scores[hits.ids.indexOf(d.id)];
    return rec;
  });
  // Without a count the total is unknown: the links then reach the pages known to exist.
  const known = hits.total ?? offset + data.length + (hits.more ? 1 : 0);
  const page = paginate({ rows: data, total: known, perPage: req.limit, page: req.page, path: PATH });
  return {
    ...page,
    last_page: hits.total === null ? null : page.last_page,
    last_page_url: hits.total === null ? null : page.last_page_url,
    next_page_url: hits.more ? `${PATH}?page=${req.page + 1}` : null,
    total: hits.total,
    has_more: hits.more,
    meta: { type: req.type, query: req.query, ...(req.type === 'similarity' ? { threshold: req.threshold ?? 0.7 } : {}) },
  };
}
