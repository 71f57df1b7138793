/**
 * `POST /api/search` (public, like COCONUT's own search). Two forms of request share it:
 * - COCONUT's (`{query, type, tagType, limit, sort, page, offset, status}`, every COCONUT search
 *   type, natprod's structure options beside): answered as COCONUT answers, `{data: <Laravel
 *   paginator>}` (api/catalog/coconut-search/);
 * - natprod's own structure search (`type` exact, substructure or similarity, natprod's `count`
 *   field, and none of COCONUT's own fields `tagType`, `sort`, `offset`, `status`): the flat
 *   paginator with the molecule records of `/api/molecules/search`, now with all of Laravel's
 *   paginator fields, plus `has_more` and `meta`; similarity hits carry their `similarity`.
 */
import type { FastifyInstance } from 'fastify';
import { molecules } from '../schema/resources.ts';
import { serialize } from '../search/search.ts';
import { docsInOrder, type StructureSearch } from './structure.ts';
import { validateSearchRequest } from './request.ts';
import { paginate } from '../coconut-search/paginator.ts';
import { isNatprodForm } from '../coconut-search/request.ts';
import { coconutSearch } from '../coconut-search/search.ts';

/** Path of the page links of natprod's own answer: relative, so the MCP tool answers the same document. */
const PATH = '/api/search';

export async function structureSearch(structure: StructureSearch, body: unknown) {
  const req = validateSearchRequest(body);
  const offset = (req.page - 1) * req.limit;
  const hits = await structure.page(req, offset, req.limit, req.count);
  const docs = await docsInOrder(structure.store, hits.ids);
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

/** The answer of `POST /api/search` to a body of either form; `path`: the page links' path (absolute when known). */
export function searchAnswer(structure: StructureSearch, body: unknown, path?: string) {
  if (isNatprodForm(body)) return structureSearch(structure, body);
  return coconutSearch({ store: structure.store, structure }, body, path);
}

export function structureRoutes(app: FastifyInstance, structure: StructureSearch) {
  app.post('/api/search', { config: { catalogPublic: true } }, async (req) => searchAnswer(structure, req.body, `${req.protocol}://${req.host}${PATH}`));
}
