/**
 * (Over 300 lines on purpose: one class answering nedb's whole Index interface, with its roll-backs, which nedb's Datastore calls directly.)
 *
 * The embedded store's field index: what nedb's own `Index` (lib/indexes.js) answers, over a Map
 * instead of an AVL tree. nedb's tree keeps a node of a dozen fields (its options included) and a
 * list for every key: 176 bytes a document for each index whose keys are distinct (`_id`, `id`,
 * the InChIKey, the identifier: measured on 200,000 molecules), which made the molecules' indexes
 * cost more than a third of the catalog's memory at 700,000. Here a key maps to its document (or
 * to a list of them when several share it), and the keys' order, which only range queries and
 * `getAll` need, is a sorted array kept by merging in the keys added out of order when asked for
 * (ids only ever append, so the id index keeps its order).
 *
 * Semantics are nedb's (test/catalog/store-index.test.ts checks them against its Index on random
 * operations): keys read with nedb's `getDotValues`; an array value indexes each distinct element;
 * `sparse` skips documents without the field; `unique` throws nedb's `uniqueViolated` error and
 * leaves the index unchanged (every write of several keys or documents rolls back on failure);
 * order and equality are nedb's `compareThings` (numbers before strings before booleans, then
 * dates and other objects). Primitive keys are Map keys; dates and objects, which no catalog field
 * holds but nedb allows, are kept apart in a list and compared one by one.
 */
import { createRequire } from 'node:module';
import type { Doc } from './types.ts';

const model = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as {
  getDotValues: (doc: unknown, fields: string[]) => unknown;
  compareThings: (a: unknown, b: unknown) => number;
};
const { compareThings } = model;

type Key = unknown;
/** A key's documents: one, a list, or past GROUP_SET of them a Set (a status or a collection shared by a third of the catalog: updating one of its documents was two passes over the list). */
type Entry = Doc | Doc[] | Set<Doc>;
const GROUP_SET = 32;
interface Bounds {
  $lt?: unknown;
  $lte?: unknown;
  $gt?: unknown;
  $gte?: unknown;
}

const primitive = (k: Key) => k === null || typeof k !== 'object';

function uniqueViolated(key: Key): Error {
  return Object.assign(new Error(`Can't insert key ${String(key)}, it violates the unique constraint`), { key, errorType: 'uniqueViolated' });
}

/** Distinct keys of an array value, as nedb's `uniq(key, projectForUnique)`: by type and value for primitives and dates, by reference for objects. */
function distinct(keys: Key[]): Key[] {
  const seen = new Set<unknown>();
  const out: Key[] = [];
  for (const k of keys) {
    const id = k instanceof Date ? `$date${k.getTime()}` : k;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(k);
  }
  return out;
}

export class CompactIndex {
  readonly fieldName: string;
  readonly unique: boolean;
  readonly sparse: boolean;
  private readonly fields: string[];
  private map = new Map<Key, Entry>();
  /** Dates and objects used as keys (nedb allows them; compared with compareThings). */
  private others: { key: Key; doc: Doc }[] = [];
  /**
   * The primitive keys in compareThings order, possibly with keys since removed (skipped when
   * read: `map` says which are live), and the keys added since that fall inside it (`tail`,
   * unsorted): merged in by `order()` when a range or `getAll` needs the order. An import inserts
   * rows between range queries (the InChIKey blocks of its final refresh): a merge costs a pass,
   * where sorting every key again for each chunk of rows made a 700,000-row import 77 % slower.
   */
  private sorted: Key[] = [];
  private tail: Key[] = [];
  /** Keys removed since the last merge (they may still be in `sorted`). */
  private removed = 0;

  constructor(options: { fieldName: string; unique?: boolean; sparse?: boolean }) {
    if (typeof options.fieldName !== 'string') throw new Error('fieldName must be a string');
    this.fieldName = options.fieldName;
    this.fields = options.fieldName.split(',');
    this.unique = options.unique ?? false;
    this.sparse = options.sparse ?? false;
  }

  reset(newData?: Doc[]) {
    this.map = new Map();
    this.others = [];
    this.sorted = [];
    this.tail = [];
    this.removed = 0;
    if (!newData?.length) return;
    this.insert(newData);
    // In order now, while the collection loads: left to the first range query, the first search
    // by an InChIKey block after a start waited for the sort of every key (230 ms at 100,000 molecules).
    this.order();
  }

  /** The keys a document is indexed under (none: sparse and missing). */
  private keysOf(doc: Doc): Key[] {
    const key = model.getDotValues(doc, this.fields);
    // (nedb's test for a compound key with no field set skips any object whose own values are all undefined: a date too.)
    if (this.sparse && (key === undefined || (typeof key === 'object' && key !== null && Object.values(key).every((v) => v === undefined)))) return [];
    return Array.isArray(key) ? distinct(key) : [key];
  }

  insert(doc: Doc | Doc[]) {
    if (Array.isArray(doc)) return this.insertMany(doc);
    const keys = this.keysOf(doc);
    for (let i = 0; i < keys.length; i++) {
      try {
        this.add(keys[i], doc);
      } catch (e) {
        for (let j = 0; j < i; j++) this.drop(keys[j], doc);
        throw e;
      }
    }
  }

  private insertMany(docs: Doc[]) {
    for (let i = 0; i < docs.length; i++) {
      try {
        this.insert(docs[i]);
      } catch (e) {
        for (let j = 0; j < i; j++) this.remove(docs[j]);
        throw e;
      }
    }
  }

  remove(doc: Doc | Doc[]) {
    if (Array.isArray(doc)) {
      for (const d of doc) this.remove(d);
      return;
    }
    for (const k of this.keysOf(doc)) this.drop(k, doc);
  }

  update(oldDoc: Doc | { oldDoc: Doc; newDoc: Doc }[], newDoc?: Doc) {
    if (Array.isArray(oldDoc)) return this.updateMany(oldDoc);
    const before = this.keysOf(oldDoc);
    const after = this.keysOf(newDoc!);
    // The same single primitive key (most updates): the document is replaced where it is.
    if (before.length === 1 && after.length === 1 && primitive(before[0]) && Object.is(before[0], after[0]) && this.replace(before[0], oldDoc, newDoc!)) return;
    this.remove(oldDoc);
    try {
      this.insert(newDoc!);
    } catch (e) {
      this.insert(oldDoc);
      throw e;
    }
  }

  private updateMany(pairs: { oldDoc: Doc; newDoc: Doc }[]) {
    for (const p of pairs) this.remove(p.oldDoc);
    for (let i = 0; i < pairs.length; i++) {
      try {
        this.insert(pairs[i].newDoc);
      } catch (e) {
        for (let j = 0; j < i; j++) this.remove(pairs[j].newDoc);
        for (const p of pairs) this.insert(p.oldDoc);
        throw e;
      }
    }
  }

  revertUpdate(oldDoc: Doc | { oldDoc: Doc; newDoc: Doc }[], newDoc?: Doc) {
    if (Array.isArray(oldDoc)) this.update(oldDoc.map((p) => ({ oldDoc: p.newDoc, newDoc: p.oldDoc })));
    else this.update(newDoc!, oldDoc);
  }

  getMatching(value: Key | Key[]): Doc[] {
    if (!Array.isArray(value)) return this.match(value);
    const out = new Set<Doc>();
    for (const v of value) for (const d of this.match(v)) out.add(d);
    return [...out];
  }

  getBetweenBounds(query: Bounds): Doc[] {
    const inside = (k: Key) =>
      (!('$gt' in query) || compareThings(k, query.$gt) > 0) &&
      (!('$gte' in query) || compareThings(k, query.$gte) >= 0) &&
      (!('$lt' in query) || compareThings(k, query.$lt) < 0) &&
      (!('$lte' in query) || compareThings(k, query.$lte) <= 0);
    const keys = this.order();
    // The first key past the lower bound, by binary search; then keys in order until one is past the upper.
    let lo = 0;
    let hi = keys.length;
    const low = '$gt' in query ? query.$gt : '$gte' in query ? query.$gte : undefined;
    if ('$gt' in query || '$gte' in query) {
      const strict = '$gt' in query;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const c = compareThings(keys[mid], low);
        if (c < 0 || (strict && c === 0)) lo = mid + 1;
        else hi = mid;
      }
    }
    const out: Doc[] = [];
    for (let i = lo; i < keys.length && inside(keys[i]); i++) pushEntry(out, this.map.get(keys[i])!);
    for (const o of this.sortedOthers()) if (inside(o.key)) out.push(o.doc);
    return out;
  }

  /** Every indexed document once per key: `_id` in insertion order (its keys are random), other fields in key order. */
  getAll(): Doc[] {
    const out: Doc[] = [];
    if (this.fieldName === '_id') for (const e of this.map.values()) pushEntry(out, e);
    else for (const k of this.order()) pushEntry(out, this.map.get(k)!);
    for (const o of this.sortedOthers()) out.push(o.doc);
    return out;
  }

  private match(key: Key): Doc[] {
    if (!primitive(key)) return this.others.filter((o) => compareThings(o.key, key) === 0).map((o) => o.doc);
    const e = this.map.get(key);
    return e === undefined ? [] : Array.isArray(e) ? e.slice() : e instanceof Set ? [...e] : [e];
  }

  private add(key: Key, doc: Doc) {
    if (!primitive(key)) {
      if (this.unique && this.others.some((o) => compareThings(o.key, key) === 0)) throw uniqueViolated(key);
      this.others.push({ key, doc });
      return;
    }
    const e = this.map.get(key);
    if (e === undefined) {
      this.map.set(key, doc);
      const s = this.sorted;
      if (!this.tail.length && (!s.length || compareThings(key, s[s.length - 1]) > 0)) s.push(key);
      // A key still in `sorted` but not in the map was removed since the last merge (`removed`
      // counted it): back again, `sorted` is right for it. nedb updates a document by removing
      // and inserting it in every index; without this each update made the next range query
      // merge every key again (an import's final refresh, a range per InChIKey block: quadratic).
      else if (this.inSorted(key)) this.removed--;
      else this.tail.push(key);
      return;
    }
    if (this.unique) throw uniqueViolated(key);
    if (e instanceof Set) e.add(doc);
    else if (!Array.isArray(e)) this.map.set(key, [e, doc]);
    else if (e.length < GROUP_SET) e.push(doc);
    else this.map.set(key, new Set([...e, doc]));
  }

  private drop(key: Key, doc: Doc) {
    if (!primitive(key)) {
      this.others = this.others.filter((o) => o.doc !== doc || compareThings(o.key, key) !== 0);
      return;
    }
    const e = this.map.get(key);
    if (e === undefined) return;
    if (e instanceof Set) {
      if (!e.delete(doc) || e.size) return;
    } else if (Array.isArray(e)) {
      const rest = e.filter((d) => d !== doc);
      if (rest.length === e.length) return;
      if (rest.length) {
        this.map.set(key, rest.length === 1 ? rest[0] : rest);
        return;
      }
    } else if (e !== doc) return;
    this.map.delete(key);
    this.removed++;
  }

  /** Whether `key` is in `sorted` (live or not), by binary search. */
  private inSorted(key: Key): boolean {
    const s = this.sorted;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareThings(s[mid], key);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }

  /** Puts newDoc where oldDoc is under `key`; false when oldDoc is not there. */
  private replace(key: Key, oldDoc: Doc, newDoc: Doc): boolean {
    const e = this.map.get(key);
    if (e === oldDoc) {
      this.map.set(key, newDoc);
      return true;
    }
    if (e instanceof Set) {
      if (!e.delete(oldDoc)) return false;
      e.add(newDoc);
      return true;
    }
    if (!Array.isArray(e)) return false;
    const i = e.indexOf(oldDoc);
    if (i < 0) return false;
    // Last among its key's documents, as nedb's remove and insert leave it.
    e.splice(i, 1);
    e.push(newDoc);
    return true;
  }

  /** The live primitive keys in order: the tail merged in, removed keys dropped (when there are any). */
  private order(): Key[] {
    if (!this.tail.length && !this.removed) return this.sorted;
    const live = (k: Key) => this.map.has(k);
    // (sort() puts undefined last without asking the comparator; compareThings puts it first.)
    const added = sortKeys(this.tail.filter((k) => k !== undefined && live(k)));
    const out: Key[] = this.tail.includes(undefined) && live(undefined) && !this.sorted.includes(undefined) ? [undefined] : [];
    const s = this.sorted;
    let i = 0;
    let j = 0;
    const push = (k: Key) => {
      if (live(k) && (!out.length || compareThings(out[out.length - 1], k) !== 0)) out.push(k);
    };
    while (i < s.length || j < added.length) {
      if (j >= added.length || (i < s.length && compareThings(s[i], added[j]) <= 0)) push(s[i++]);
      else push(added[j++]);
    }
    this.sorted = out;
    this.tail = [];
    this.removed = 0;
    return out;
  }

  private sortedOthers() {
    return this.others.length > 1 ? this.others.slice().sort((a, b) => compareThings(a.key, b.key)) : this.others;
  }
}

function pushEntry(out: Doc[], e: Entry) {
  if (Array.isArray(e) || e instanceof Set) for (const d of e) out.push(d);
  else out.push(e);
}

/**
 * Keys in compareThings order; all strings or all numbers (every catalog index) by the engine's
 * own sort, several times faster than through compareThings (700,000 InChIKeys: ~2 s with it).
 */
function sortKeys(keys: Key[]): Key[] {
  if (keys.every((k) => typeof k === 'string')) return (keys as string[]).sort();
  if (keys.every((k) => typeof k === 'number' && !Number.isNaN(k))) return Array.from(Float64Array.from(keys as number[]).sort());
  return keys.sort(compareThings);
}
