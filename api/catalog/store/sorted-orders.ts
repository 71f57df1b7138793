/**
 * The embedded store's sorted listings (and collection sizes). nedb's own sort is slow (~10 µs per comparison) and
 * cannot place nulls PostgreSQL-style, so a collection is sorted here, over nedb's live documents
 * (no copies), and the order is kept until that collection is written or reloaded: paging through
 * a listing costs one sort. A filter is applied along the order until the page is full.
 */
import { sortDocs } from './sort.ts';
import type { Doc, Filter, SortKey } from './types.ts';

export class SortedOrders {
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, { version: number; docs: Doc[] }>();

  constructor(
    private readonly match: (doc: unknown, filter: Filter) => boolean,
    private readonly max = 16,
  ) {}

  private readonly totals = new Map<string, { version: number; n: number }>();

  /** The size of a collection, counted once per version (walking nedb's index takes ~50 ms at 100k). */
  total(coll: string, count: () => number): number {
    const version = this.versions.get(coll) ?? 0;
    const hit = this.totals.get(coll);
    if (hit && hit.version === version) return hit.n;
    const n = count();
    this.totals.set(coll, { version, n });
    return n;
  }

  /** Forgets the orders of a collection (after a write or a reload). */
  invalidate(coll: string): void {
    this.versions.set(coll, (this.versions.get(coll) ?? 0) + 1);
  }

  /**
   * Ids of one page of the matching documents in `sort` order. `keep`, when given, decides
   * instead of matching `filter` (a caller that already knows the matches tests membership).
   */
  page(coll: string, all: () => Doc[], sort: SortKey[], filter: Filter, skip: number, limit: number, keep?: (d: Doc) => boolean): number[] {
    const key = `${coll}:${JSON.stringify(sort)}`;
    const version = this.versions.get(coll) ?? 0;
    let cached = this.cache.get(key);
    if (!cached || cached.version !== version) {
      cached = { version, docs: sortDocs([...all()], sort) };
      if (this.cache.size >= this.max) this.cache.clear();
      this.cache.set(key, cached);
    }
    const out: number[] = [];
    const end = limit ? skip + limit : Infinity;
    const any = !keep && !Object.keys(filter).length;
    let seen = 0;
    for (const d of cached.docs) {
      if (seen >= end) break;
      if (keep ? !keep(d) : !any && !this.match(d, filter)) continue;
      if (seen++ >= skip) out.push(d.id);
    }
    return out;
  }
}
