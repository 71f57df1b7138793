/**
 * The embedded store's answer to `linkedPage` (types.ts): molecules by a value of the documents
 * their link lists name, e.g. every molecule reported from an organism whose family is Asteraceae.
 *
 * As a filter this is `{organism_ids: {$in: <the thousands of organisms under a kingdom>}}`: every
 * page re-reads each molecule to test its list and to count the matches, about 100 ms at 100,000
 * molecules (nedb's documents are scattered objects of forty fields: reading one is a cache miss).
 * Here instead, each part built on first use and kept until its collection is written or reloaded:
 * - from the linked collection: per lower-cased value of its documents' `keys` fields, the ids
 *   of the documents holding it (a kingdom: thousands of organisms);
 * - from the molecules: per linked id, the positions (in the store's one list of molecules per
 *   generation) of the molecules whose link list names it, ascending, each once; a value's
 *   molecules are the union of its documents' lists (a stamp per position drops repeats);
 * - per filter asked with a large union (the search's base conditions, such as "no placeholder"),
 *   one byte per molecule from the store's compiled predicate, so counting reads no document;
 * - per sort asked with a large union, each molecule's rank in the store's cached sorted listing
 *   (sorted-orders.ts), so a page is a sort of integers.
 * A small union (at most SMALL molecules) reads its documents directly, as the planner's small
 * matches are (embedded.ts `findPlanned`), unless the bytes and ranks it needs are built already:
 * a write costs a narrow taxon's next query no rebuild of the sorted listing. The answers are the
 * filter path's: the same compiled predicate decides, the same sorted listing (or the same sort
 * of the matches, taken in the store's order) orders. A write to an organism rebuilds only the
 * first part; a write to a molecule the others (about 0.3 s at 100,000 molecules, most of it the
 * sorted listing, which the filter path rebuilds too).
 */
import { sortDocs } from './sort.ts';
import { valuesAt } from './embedded-text.ts';
import type { Predicate } from './embedded-match.ts';
import type { Sorted } from './sorted-orders.ts';
import { LINKED, type Doc, type Filter, type FindOptions, type IdPage, type LinkedKey, type LinkField, type SortKey } from './types.ts';

/** A list of at most this many molecules is matched and sorted from its documents (as embedded.ts SORT_DIRECTLY). */
const SMALL = 5000;
/** ... unless it has more than this many and the typed arrays it would use are already built. */
const WARM = 64;
const SEP = '\u0000';
const EMPTY = new Int32Array(0);
/** Unions of at least this many linked documents are kept (fewer are cheap to unite again) ... */
const KEEP_UNION = 64;
/** ... at most this many (each at most 4 bytes a molecule). */
const MAX_UNIONS = 64;

/** What the store lends for one question. */
export interface LinkedSources {
  /** Generations (writes) of the molecules and of the linked collection: what is built from one lasts while it stays. */
  molGen: number;
  linkedGen: number;
  /** The molecules (live documents, in the store's order; one list per generation). */
  docs(): Doc[];
  /** The linked collection's documents. */
  linked(): Doc[];
  matcher(filter: Filter): Predicate;
  /** The molecules in `sort` order, cached by the store, with each one's position in the list it sorted (`from`). */
  sorted(sort: SortKey[]): Sorted;
}

/** Per lower-cased value of the linked documents' `keys`: the ids of the documents holding it. Built from the linked collection only. */
interface KeyIndex {
  linkedGen: number;
  lists: Map<string, number[]>;
}

/** Per linked id: the positions of the molecules whose list names it, ascending, each once. Built from the molecules only. */
interface Postings {
  molGen: number;
  docs: Doc[];
  /** Molecule id by position. */
  ids: Float64Array;
  byLinked: Map<number, Int32Array>;
}

const filterKey = (f: Filter) => JSON.stringify(f, (_k, v) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v));

function buildKeys(keys: string[], linked: Doc[], linkedGen: number): KeyIndex {
  const paths = keys.map((k) => k.split('.'));
  const lists = new Map<string, number[]>();
  for (const o of linked) {
    const seen = new Set<string>();
    for (const p of paths) {
      for (const v of valuesAt(o, p)) {
        const low = v.toLowerCase();
        if (seen.has(low)) continue;
        seen.add(low);
        const list = lists.get(low);
        if (list) list.push(o.id);
        else lists.set(low, [o.id]);
      }
    }
  }
  return { linkedGen, lists };
}

function buildPostings(field: string, docs: Doc[], molGen: number): Postings {
  const lists = new Map<number, number[]>();
  const ids = new Float64Array(docs.length);
  const add = (e: unknown, p: number) => {
    // As the filter's `$in` on a list of numbers: an element equal (===) to a linked document's id.
    if (typeof e !== 'number') return;
    const list = lists.get(e);
    if (!list) lists.set(e, [p]);
    else if (list[list.length - 1] !== p) list.push(p);
  };
  for (let p = 0; p < docs.length; p++) {
    const d = docs[p];
    ids[p] = d.id;
    const v = d[field];
    if (Array.isArray(v)) for (const e of v) add(e, p);
    else add(v, p);
  }
  const byLinked = new Map<number, Int32Array>();
  for (const [id, list] of lists) byLinked.set(id, Int32Array.from(list));
  return { molGen, docs, ids, byLinked };
}

export class LinkedIndexes {
  private readonly keys = new Map<string, KeyIndex>();
  private readonly postings = new Map<string, Postings>();
  private readonly bits = new Map<string, { molGen: number; bits: Uint8Array }>();
  private readonly ranks = new Map<string, { molGen: number; rank: Int32Array; docs: Doc[] }>();
  /** The union of postings: a position is taken when its stamp is the current question's. */
  private stamps = new Int32Array(0);
  private buffer = new Int32Array(0);
  private stamp = 0;
  /** Unions by field and value (see `unionOf`). */
  private readonly unions = new Map<string, { molGen: number; linkedGen: number; list: Int32Array }>();

  constructor(private readonly max = 8) {}

  /** Drops what was built from a collection (after a write or a reload). */
  invalidate(coll: string): void {
    this.unions.clear();
    if (coll === 'molecules') {
      this.postings.clear();
      this.bits.clear();
      this.ranks.clear();
      return;
    }
    for (const key of [...this.keys.keys()]) if (LINKED[key.split(SEP)[0] as LinkField] === coll) this.keys.delete(key);
  }

  private keyIndex(q: LinkedKey, src: LinkedSources): KeyIndex {
    const key = [q.field, ...q.keys].join(SEP);
    const hit = this.keys.get(key);
    if (hit && hit.linkedGen === src.linkedGen) return hit;
    const built = buildKeys(q.keys, src.linked(), src.linkedGen);
    if (this.keys.size >= this.max) this.keys.clear();
    this.keys.set(key, built);
    return built;
  }

  private postingsOf(field: string, src: LinkedSources): Postings {
    const hit = this.postings.get(field);
    if (hit && hit.molGen === src.molGen) return hit;
    const built = buildPostings(field, src.docs(), src.molGen);
    this.postings.set(field, built);
    return built;
  }

  /** Positions of the molecules linked to any of `linked`: each once, in no order (the list may be a reused buffer: use it at once). */
  private union(linked: number[], post: Postings): Int32Array {
    if (linked.length === 1) return post.byLinked.get(linked[0]) ?? EMPTY;
    const n = post.docs.length;
    if (this.stamps.length !== n) {
      this.stamps = new Int32Array(n);
      this.buffer = new Int32Array(n);
      this.stamp = 0;
    }
    if (++this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    const { stamps, buffer, stamp } = this;
    let k = 0;
    for (const id of linked) {
      const list = post.byLinked.get(id);
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        const p = list[i];
        if (stamps[p] !== stamp) {
          stamps[p] = stamp;
          buffer[k++] = p;
        }
      }
    }
    return buffer.slice(0, k);
  }

  /** The union for a value, kept while both collections stay (a kingdom is asked again and again). */
  private unionOf(value: string, linked: number[], post: Postings, linkedGen: number): Int32Array {
    if (linked.length < KEEP_UNION) return this.union(linked, post);
    const hit = this.unions.get(value);
    if (hit && hit.molGen === post.molGen && hit.linkedGen === linkedGen) return hit.list;
    const list = this.union(linked, post);
    if (this.unions.size >= MAX_UNIONS) this.unions.clear();
    this.unions.set(value, { molGen: post.molGen, linkedGen, list });
    return list;
  }

  private bitsFor(filter: Filter, post: Postings, src: LinkedSources): Uint8Array {
    const key = filterKey(filter);
    const hit = this.bits.get(key);
    if (hit && hit.molGen === post.molGen) return hit.bits;
    const keep = src.matcher(filter);
    const bits = new Uint8Array(post.docs.length);
    for (let p = 0; p < post.docs.length; p++) if (keep(post.docs[p])) bits[p] = 1;
    if (this.bits.size >= this.max) this.bits.clear();
    this.bits.set(key, { molGen: post.molGen, bits });
    return bits;
  }

  private rankFor(sort: SortKey[], post: Postings, src: LinkedSources): { rank: Int32Array; docs: Doc[] } {
    const key = JSON.stringify(sort);
    const hit = this.ranks.get(key);
    if (hit && hit.molGen === post.molGen) return hit;
    const sorted = src.sorted(sort);
    const rank = new Int32Array(post.docs.length).fill(-1);
    if (sorted.from === post.docs) {
      for (let i = 0; i < sorted.order.length; i++) rank[sorted.order[i]] = i;
    } else {
      // sorted from another list of the same documents (not expected: the store lends one per generation)
      const of = new Map(post.docs.map((d, p) => [d, p]));
      sorted.docs.forEach((d, i) => {
        const p = of.get(d);
        if (p !== undefined) rank[p] = i;
      });
    }
    if (this.ranks.size >= this.max) this.ranks.clear();
    const out = { molGen: post.molGen, rank, docs: sorted.docs };
    this.ranks.set(key, out);
    return out;
  }

  /** Whether the bits of `filter` and the ranks of `sort` are built for this generation (then a middling list uses them too). */
  private warm(filter: Filter, sort: SortKey[], byId: number, post: Postings): boolean {
    const bits = !Object.keys(filter).length || this.bits.get(filterKey(filter))?.molGen === post.molGen;
    return bits && (!!byId || this.ranks.get(JSON.stringify(sort))?.molGen === post.molGen);
  }

  page(q: LinkedKey, filter: Filter, opts: FindOptions, src: LinkedSources): IdPage {
    const value = q.value.toLowerCase();
    // `containing` finds no text holding its value separator
    const linked = value.includes(SEP) ? [] : (this.keyIndex(q, src).lists.get(value) ?? []);
    const post = this.postingsOf(q.field, src);
    const list = this.unionOf([q.field, ...q.keys, value].join(SEP), linked, post, src.linkedGen);
    const sort = opts.sort ?? [];
    const skip = Math.max(0, opts.skip ?? 0);
    const limit = opts.limit ?? 0;
    const cut = <T>(xs: T[]) => (limit ? xs.slice(skip, skip + limit) : xs.slice(skip));
    const any = !Object.keys(filter).length;
    // No sort: id order (as the planned path answers); by id alone: a numeric sort.
    const byId = !sort.length ? 1 : sort.every((k) => k.field === 'id') ? sort[0].dir : 0;
    if (list.length <= SMALL && !(list.length > WARM && this.warm(filter, sort, byId, post))) {
      const keep = any ? null : src.matcher(filter);
      const hits: Doc[] = [];
      // in the store's order, as the filter path matches them, so that ties sort alike
      for (const p of list.slice().sort()) {
        const d = post.docs[p];
        if (!keep || keep(d)) hits.push(d);
      }
      const ordered = byId ? hits.sort((a, b) => (a.id - b.id) * byId) : sortDocs(hits, sort);
      return { total: hits.length, ids: cut(ordered).map((d) => d.id) };
    }
    const bits = any ? null : this.bitsFor(filter, post, src);
    if (byId) {
      const ids = new Float64Array(list.length);
      let n = 0;
      for (let i = 0; i < list.length; i++) if (!bits || bits[list[i]]) ids[n++] = post.ids[list[i]];
      const asc = Array.from(ids.subarray(0, n).sort());
      return { total: n, ids: cut(byId === 1 ? asc : asc.reverse()) };
    }
    const { rank, docs } = this.rankFor(sort, post, src);
    const ranks = new Int32Array(list.length);
    let n = 0;
    for (let i = 0; i < list.length; i++) if (!bits || bits[list[i]]) ranks[n++] = rank[list[i]];
    const chosen = ranks.subarray(0, n).sort();
    const end = limit ? Math.min(n, skip + limit) : n;
    const ids: number[] = [];
    for (let i = skip; i < end; i++) ids.push(docs[chosen[i]].id);
    return { total: n, ids };
  }
}
