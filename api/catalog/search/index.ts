/**
 * Catalog search, the one entry point of this folder: the public route `POST /api/search`, and
 * what the rest of the api (catalog routes, exports, actions, MCP tools, the composition root)
 * uses of search. Nothing outside this folder imports a file inside it but this one
 * (test/unit/imports.test.ts).
 *
 * `POST /api/search` (public, like COCONUT's own search) takes two forms of request
 * (request.ts tells them apart):
 * - COCONUT's (`{query, type, tagType, limit, sort, page, offset, status}`, every COCONUT search
 *   type, natprod's structure options beside): answered as COCONUT answers, `{data: <Laravel
 *   paginator>}` (coconut/answer.ts; type `mass`, MS dereplication, by mass/answer.ts);
 * - natprod's own structure search (`type` exact, substructure or similarity, natprod's `count`
 *   field, and none of COCONUT's own fields `tagType`, `sort`, `offset`, `status`): the flat
 *   paginator with the molecule records of `/api/molecules/search` (structure/answer.ts).
 *
 * The answerers sit side by side: `lomkit/` (`/api/<resource>/search`: filters, sorts, scopes,
 * includes, aggregates, and the structure operators), `coconut/` (COCONUT's types), `structure/`
 * (the structure-search index's api side and natprod's form), `mass/` (dereplication by m/z); the
 * Laravel paginator and the record of a hit are page.ts. docs/architecture.md, "Catalog search",
 * says where a new search type goes.
 */
import type { FastifyInstance } from 'fastify';
import { coconutSearch } from './coconut/answer.ts';
import { isNatprodForm } from './request.ts';
import { structureAnswer } from './structure/answer.ts';
import type { StructureSearch } from './structure/structure.ts';

const PATH = '/api/search';

/** The answer of `POST /api/search` to a body of either form; `path`: the page links' path (absolute when known). */
export function searchAnswer(structure: StructureSearch, body: unknown, path?: string) {
  if (isNatprodForm(body)) return structureAnswer(structure, body);
  return coconutSearch({ store: structure.store, structure }, body, path);
}

export function searchRoutes(app: FastifyInstance, structure: StructureSearch) {
  app.post(PATH, { config: { catalogPublic: true } }, async (req) => searchAnswer(structure, req.body, `${req.protocol}://${req.host}${PATH}`));
}

// COCONUT's search, for the MCP tools that answer it without HTTP.
export { coconutSearch } from './coconut/answer.ts';
export { COCONUT_TYPES, EXTRA_TYPES, LIMIT_DEFAULT, LIMIT_MAX, QUERY_MAX } from './request.ts';
export { MASS_KEYS } from './mass/mass-search.ts';
// Lomkit search, its validation and records: the catalog's resource routes, actions, exports, audits.
export { matchingIds, search, serialize } from './lomkit/search.ts';
export { AGG, GATES, OPERATORS, hasOperatorKeys, validateSearch } from './lomkit/validate.ts';
export { and, translateSearch } from './lomkit/query.ts';
// Structure search: the index module (built by the composition root) and its queries.
export { createStructureSearch, type StructureSearchModule } from './structure/module.ts';
export type { StructureQuery, StructureSearch } from './structure/structure.ts';
export { SEARCH_LIMIT_MAX, validateStructure } from './structure/request.ts';
// Mass search (dereplication): the mass index kept current by the store's writes, the adducts and bounds.
export { observeMassWrites } from './mass/mass-index.ts';
export { ADDUCTS, ADDUCTS_BY_NAME, DEFAULT_ADDUCTS } from './mass/adducts.ts';
export { DEFAULT_PPM, MAX_DA, MAX_MZ, MAX_MZ_VALUES, MAX_PPM } from './mass/mass-search.ts';
