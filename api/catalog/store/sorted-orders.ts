/**
 * The embedded store's sorted listings (and collection sizes). nedb's own sort is slow (~10 µs per comparison) and
 * cannot place nulls PostgreSQL-style, so a collection is sorted here, over nedb's live documents
 * (no copies), and the order is kept until that collection is written or reloaded: paging through
 * a listing costs one sort. A filter is applied along the order until the page is full.
 */
import { sortOrder } from './sort.ts';
import type { Doc, Filter, SortKey } from './types.ts';

export interface Sorted {
  version: number;
  docs: Doc[];
  order: number[];
  from: Doc[];
}

export class SortedOrders {
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, Sorted>();

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

  /** Every document of a collection in `sort` order (live documents: read them, never change them; never change the list). */
  sorted(coll: string, all: () => Doc[], sort: SortKey[]): Doc[] {
    return this.sortedWithOrder(coll, all, sort).docs;
  }

  /**
   * The same, with `order`: the position of each in the list `all()` gave when it was sorted
   * (`from`; the store passes its one list per generation, so callers can check it is theirs).
   */
  sortedWithOrder(coll: string, all: () => Doc[], sort: SortKey[]): Sorted {
    const key = `${coll}:${JSON.stringify(sort)}`;
    const version = this.versions.get(coll) ?? 0;
    let cached = this.cache.get(key);
    if (!cached || cached.version !== version) {
      const from = all();
      const order = sortOrder(from, sort);
      cached = { version, docs: order.map((i) => from[i]), order, from };
      if (this.cache.size >= this.max) this.cache.clear();
      this.cache.set(key, cached);
    }
    return cached;
  }

  /**
   * Ids of one page of the matching documents in `sort` order. `keep`, when given, decides
   * instead of matching `filter` (a caller that already knows the matches tests membership).
   */
  page(coll: string, all: () => Doc[], sort: SortKey[], filter: Filter, skip: number, limit: number, keep?: (d: Doc) => boolean): number[] {
    const docs = this.sorted(coll, all, sort);
    const out: number[] = [];
    const end = limit ? skip + limit : Infinity;
    const any = !keep && !Object.keys(filter).length;
    let seen = 0;
    for (const d of docs) {
      if (seen >= end) break;
      if (keep ? !keep(d) : !any && !this.match(d, filter)) continue;
      if (seen++ >= skip) out.push(d.id);
    }
    return out;
  }
}
