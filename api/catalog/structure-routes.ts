/**
 * `POST /api/search`: catalog structure search (exact, substructure, similarity), public like
 * COCONUT's own search. Answers COCONUT's paginator with the molecule records of
 * `/api/molecules/search`; similarity hits carry their `similarity` (Tanimoto).
 */
import type { FastifyInstance } from 'fastify';
import { molecules } from './resources.ts';
import { serialize } from './search.ts';
import { docsInOrder, type StructureSearch } from './structure.ts';
import { validateSearchRequest } from './structure-request.ts';

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
  return {
    current_page: req.page,
    data,
    from: data.length ? offset + 1 : null,
    last_page: hits.total === null ? null : Math.max(1, Math.ceil(hits.total / req.limit)),
    per_page: req.limit,
    to: data.length ? offset + data.length : null,
    total: hits.total,
    has_more: hits.more,
    meta: { type: req.type, query: req.query, ...(req.type === 'similarity' ? { threshold: req.threshold ?? 0.7 } : {}) },
  };
}

export function structureRoutes(app: FastifyInstance, structure: StructureSearch) {
  app.post('/api/search', { config: { catalogPublic: true } }, async (req) => structureSearch(structure, req.body));
}
