/**
 * A collection's matching documents a page at a time in id order, for whatever reads them all
 * (exports and dumps, the structure-search index build, the fingerprint backfill). Each page asks
 * for a window of ids (`$gt` the last one read, `$lte` a bound), not for every id after the last
 * one: with an open range the embedded store's id index hands over every later document for each
 * page, which made reading 100,000 molecules quadratic (4.4 of an index build's 7.8 s) and a dump
 * of 700,000 slow down to 280 molecules/s (2026-11-29). The window widens where matching ids are
 * sparse and narrows again where they are dense.
 */
import type { CatalogStore, CollectionName, Doc, Filter } from './types.ts';

export async function* idPages(store: CatalogStore, coll: CollectionName, filter: Filter, size: number, fields?: string[]): AsyncGenerator<Doc[]> {
  const where = (range: Filter): Filter => (Object.keys(filter).length ? { $and: [filter, range] } : range);
  const top = await store.find(coll, filter, { sort: [{ field: 'id', dir: -1, nulls: 'last' }], limit: 1, fields: ['id'] });
  const last = top[0]?.id ?? 0;
  let after = 0;
  let span = size;
  while (after < last) {
    const docs = await store.find(coll, where({ id: { $gt: after, $lte: after + span } }), { sort: [{ field: 'id', dir: 1, nulls: 'last' }], limit: size, ...(fields ? { fields } : {}) });
    after = docs.length === size ? docs[docs.length - 1].id : after + span;
    if (docs.length < size / 2) span *= 2;
    else if (docs.length === size) span = Math.max(size, span / 2);
    if (docs.length) yield docs;
  }
}
