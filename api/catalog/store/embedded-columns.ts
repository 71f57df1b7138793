/**
 * Lookup columns of the embedded store for fields nedb does not index: the molecules' property
 * fields (COCONUT's filter keys) and status flags. A nedb index is updated on every write, and
 * removing a document from a key shared by many (a boolean, a count that is mostly 0) copies
 * that key's whole list: an index on `properties.contains_sugar` would make each molecule write
 * cost O(n). A column is instead built on first use, from nedb's live documents, and dropped when
 * the collection is written or reloaded (as the sorted orders are), so writes cost nothing and
 * the first query after a write pays one pass (plus a sort for numbers).
 *
 * A column answers equality, `$in` and (for numbers) ranges exactly as nedb's matcher does:
 * strict equality by type, a list value matching when one of its elements does, ranges comparing
 * numbers with numbers only. Its counts come before any list is made, so the planner
 * (embedded-plan.ts) can pick the most selective condition cheaply.
 */
import type { Doc } from './types.ts';

type Key = string | boolean;
export interface Bounds {
  $gt?: number;
  $gte?: number;
  $lt?: number;
  $lte?: number;
}

function valueAt(doc: Doc, path: string[]): unknown {
  let cur: unknown = doc;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** First position in sorted `a` whose value is ≥ v (`strict`: > v). */
function bound(a: Float64Array, v: number, strict: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strict ? a[mid] <= v : a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Column {
  private readonly nums: Float64Array;
  private readonly numDocs: Doc[];
  private readonly keys = new Map<Key, Doc[]>();
  /** Some document holds a list here: results may name a document twice. */
  private multi = false;

  constructor(docs: Doc[], field: string) {
    const path = field.split('.');
    const values: number[] = [];
    const owners: Doc[] = [];
    const add = (v: unknown, d: Doc) => {
      if (typeof v === 'number') {
        if (!Number.isNaN(v)) values.push(v), owners.push(d);
      } else if (typeof v === 'string' || typeof v === 'boolean') {
        const list = this.keys.get(v);
        if (list) list.push(d);
        else this.keys.set(v, [d]);
      }
    };
    for (const d of docs) {
      const v = valueAt(d, path);
      if (Array.isArray(v)) {
        this.multi = true;
        for (const x of v) add(x, d);
      } else add(v, d);
    }
    const order = Uint32Array.from(values.keys()).sort((a, b) => values[a] - values[b]);
    this.nums = Float64Array.from(order, (i) => values[i]);
    this.numDocs = Array.from(order, (i) => owners[i]);
  }

  private span(b: Bounds): [number, number] {
    let lo = 0;
    let hi = this.nums.length;
    if (b.$gte !== undefined) lo = Math.max(lo, bound(this.nums, b.$gte, false));
    if (b.$gt !== undefined) lo = Math.max(lo, bound(this.nums, b.$gt, true));
    if (b.$lte !== undefined) hi = Math.min(hi, bound(this.nums, b.$lte, true));
    if (b.$lt !== undefined) hi = Math.min(hi, bound(this.nums, b.$lt, false));
    return [lo, Math.max(lo, hi)];
  }

  /** How many entries `equal(values)` reads (an upper bound on the documents). */
  countEqual(values: unknown[]): number {
    let n = 0;
    for (const v of values) {
      if (typeof v === 'number') {
        const [lo, hi] = this.span({ $gte: v, $lte: v });
        n += hi - lo;
      } else if (typeof v === 'string' || typeof v === 'boolean') n += this.keys.get(v)?.length ?? 0;
    }
    return n;
  }

  /** Documents whose value equals (or, for a list, holds) one of `values`. */
  equal(values: unknown[]): Doc[] {
    const out: Doc[] = [];
    for (const v of values) {
      if (typeof v === 'number') {
        const [lo, hi] = this.span({ $gte: v, $lte: v });
        for (let i = lo; i < hi; i++) out.push(this.numDocs[i]);
      } else if (typeof v === 'string' || typeof v === 'boolean') {
        const list = this.keys.get(v);
        if (list) for (const d of list) out.push(d);
      }
    }
    return this.multi || values.length > 1 ? [...new Set(out)] : out;
  }

  countRange(b: Bounds): number {
    const [lo, hi] = this.span(b);
    return hi - lo;
  }

  /** Documents with a number within the bounds. */
  range(b: Bounds): Doc[] {
    const [lo, hi] = this.span(b);
    const out = this.numDocs.slice(lo, hi);
    return this.multi ? [...new Set(out)] : out;
  }

  /** Distinct values (numbers, strings, booleans). */
  distinct(): unknown[] {
    return [...this.keys.keys(), ...new Set(this.nums)];
  }
}

export class FieldColumns {
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, { version: number; column: Column }>();

  /** Forgets a collection's columns (after a write or a reload): dropped, so they hold no replaced documents. */
  invalidate(coll: string): void {
    this.versions.set(coll, (this.versions.get(coll) ?? 0) + 1);
    for (const key of this.cache.keys()) if (key.startsWith(`${coll}\u0000`)) this.cache.delete(key);
  }

  get(coll: string, field: string, all: () => Doc[]): Column {
    const key = `${coll}\u0000${field}`;
    const version = this.versions.get(coll) ?? 0;
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return hit.column;
    const column = new Column(all(), field);
    this.cache.set(key, { version, column });
    return column;
  }
}
