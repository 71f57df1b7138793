/**
 * (Over 300 lines on purpose: the one class that answers the whole store port over nedb, its queries and its writes; the parts that stand alone, the files and the lock, plans, columns, text and linked indexes, sorted orders, are the embedded-*.ts files.)
 *
 * Embedded store: the whole store port over @seald-io/nedb, one file per collection under
 * `dataDir`, kept in memory. The files, the cross-process lock and the reload of what other
 * processes wrote are embedded-files.ts; this file answers the queries and writes.
 * Queries: candidates from the most selective index or property column (embedded-plan.ts,
 * embedded-columns.ts), the rest of the filter as a compiled predicate (embedded-match.ts);
 * `containing` from a substring index (embedded-text.ts), `linkedPage` from per-value lists of
 * molecules (embedded-linked.ts). What is built from the documents is
 * dropped at the next write or reload of their collection (`forget`). Values the schema keeps on
 * disk (`onDisk`, embedded-disk.ts) are read back into every copy handed out (`files.restore`).
 */
import { CollectionFiles, nedbModel, SHARED, type DS, type Name } from './embedded-files.ts';
import { FieldColumns } from './embedded-columns.ts';
import { matcher, type Predicate } from './embedded-match.ts';
import { planFilter, type NedbIndex, type Plan } from './embedded-plan.ts';
import { TextIndexes } from './embedded-text.ts';
import { LinkedIndexes } from './embedded-linked.ts';
import { SortedOrders } from './sorted-orders.ts';
import { sortDocs } from './sort.ts';
import { storeIndexes } from '../schema/resources.ts';
import { COLLECTIONS, LINKED, type CatalogStore, type CollectionName, type Doc, type Filter, type FindOptions, type IdPage, type LinkedKey, type LinkField, type TextHit } from './types.ts';

const nedbMatch = nedbModel.match;

/**
 * Fields answered by lazily built columns (embedded-columns.ts) rather than nedb indexes: the
 * molecules' property fields (COCONUT's filter keys, every path under `properties.`) and the
 * fields declared `index: {embedded: 'column'}` (status flags).
 */
const COLUMNS: Partial<Record<CollectionName, (field: string) => boolean>> = Object.fromEntries(
  COLLECTIONS.map((c) => [c, storeIndexes(c)] as const)
    .filter(([, x]) => x.columns.length || x.columnPrefixes.length)
    .map(([c, x]) => [c, (f: string) => x.columnPrefixes.some((p) => f.startsWith(p)) || x.columns.includes(f)]),
);
/** A plan with at most this many matches is sorted directly; a larger one walks the cached sorted order. */
const SORT_DIRECTLY = 5000;

function clean(doc: unknown): Doc {
  const { _id, ...rest } = doc as Record<string, unknown>;
  void _id;
  return rest as Doc;
}

/** A copy of a live document, whole or projected like nedb's `{field: 1}` projections (dotted paths nest). */
function project(doc: Doc, fields?: string[]): Doc {
  if (!fields) return clean(nedbModel.deepCopy(doc));
  const out: Record<string, unknown> = { id: doc.id };
  for (const f of fields) {
    const v = nedbModel.getDotValue(doc, f);
    if (v === undefined) continue;
    const path = f.split('.');
    let cur = out;
    for (const p of path.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[path[path.length - 1]] = nedbModel.deepCopy(v);
  }
  return out as Doc;
}

export class EmbeddedStore implements CatalogStore {
  readonly kind = 'embedded' as const;
  private readonly orders = new SortedOrders(nedbMatch);
  private readonly columns = new FieldColumns();
  private readonly texts = new TextIndexes();
  private readonly linked = new LinkedIndexes();
  /** Writes and reloads per collection (for `recent`). */
  private readonly generations = new Map<Name, number>();
  /** allDocs(): the documents of a collection at a generation (live: read them, never change them). */
  private readonly everything = new Map<Name, { gen: number; docs: Doc[] }>();
  /**
   * The last few planned matches (a search asks for a count and a page of one filter: the second
   * call reuses the first's matches), by collection, generation and filter.
   */
  private readonly recent = new Map<string, { docs: Doc[]; keep: Predicate }>();
  private files!: CollectionFiles;

  private constructor() {}

  static async open(dataDir: string): Promise<EmbeddedStore> {
    const store = new EmbeddedStore();
    store.files = await CollectionFiles.open(dataDir, (name) => store.forget(name));
    return store;
  }

  onExternalChange(fn: (coll: CollectionName) => void): void {
    this.files.onExternalChange(fn);
  }

  private op<T>(fn: () => Promise<T>): Promise<T> {
    return this.files.op(fn);
  }

  /** For reads: no lock while nobody writes (embedded-files.ts `read`). */
  private read<T>(fn: () => Promise<T>): Promise<T> {
    return this.files.read(fn);
  }

  /** For writes: also invalidates the collection's sorted orders (a new token keeps the molecules'). */
  private async w(name: Name): Promise<DS> {
    this.forget(name);
    return this.files.forWrite(name);
  }

  /** Drops what was computed from a collection's documents: sorted orders, columns, text indexes. */
  private forget(name: Name): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
    for (const key of this.recent.keys()) if (key.startsWith(`${name}\u0000`)) this.recent.delete(key);
    this.orders.invalidate(name);
    this.columns.invalidate(name);
    this.texts.invalidate(name);
    this.linked.invalidate(name);
    this.everything.delete(name);
  }

  /** Every document of a collection, listed once per generation (walking nedb's id tree takes ~50 ms at 100k). */
  private allDocs(coll: CollectionName, db: DS): Doc[] {
    const gen = this.generations.get(coll) ?? 0;
    const hit = this.everything.get(coll);
    if (hit && hit.gen === gen) return hit.docs;
    const docs = db.getAllData() as Doc[];
    this.everything.set(coll, { gen, docs });
    return docs;
  }

  /**
   * The documents matching a filter, found through indexes and columns (embedded-plan.ts), or
   * null when none narrows the filter. Live documents, in no order: read them, never change them.
   */
  private planned(coll: CollectionName, db: DS, filter: Filter): { docs: Doc[]; keep: Predicate } | null {
    if (!Object.keys(filter).length) return null;
    const key = `${coll}\u0000${this.generations.get(coll) ?? 0}\u0000${JSON.stringify(filter, (_k, v) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v))}`;
    const hit = this.recent.get(key);
    if (hit) return hit;
    const columns = COLUMNS[coll];
    const plan: Plan | null = planFilter(filter, {
      index: (field) => (field !== '_id' && db.indexes[field] ? (db.indexes[field] as NedbIndex) : undefined),
      column: (field) => (columns?.(field) ? this.columns.get(coll, field, () => db.getAllData() as Doc[]) : undefined),
      matcher: (f) => matcher(f, nedbMatch),
      all: () => this.allDocs(coll, db),
    });
    if (!plan) return null;
    const docs = plan.rest ? plan.docs.filter(matcher(plan.rest, nedbMatch)) : plan.docs;
    const found = { docs, keep: matcher(filter, nedbMatch) };
    if (this.recent.size >= 4) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, found);
    return found;
  }

  /** Only called inside `op` (under the lock). */
  private db(name: Name): Promise<DS> {
    return this.files.db(name);
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.op(fn);
  }

  find(coll: CollectionName, filter: Filter, opts: FindOptions = {}): Promise<Doc[]> {
    return this.read(async () => {
      const db = await this.db(coll);
      const planned = this.planned(coll, db, filter);
      if (planned) return this.findPlanned(coll, db, planned, filter, opts);
      const proj = opts.fields ? Object.fromEntries([['_id', 0], ['id', 1], ...opts.fields.map((f) => [f, 1])]) : undefined;
      const sort = opts.sort ?? [];
      const skip = Math.max(0, opts.skip ?? 0);
      const limit = opts.limit ?? 0;
      if (!sort.length) {
        let cur = db.findAsync(filter, proj);
        if (skip) cur = cur.skip(skip);
        if (limit) cur = cur.limit(limit);
        return (await cur).map((d: Doc) => this.files.restore(coll, clean(d)));
      }
      const idOnly = sort.every((k) => k.field === 'id');
      const any = !Object.keys(filter).length;
      if (idOnly && !any) {
        // nedb would sort (and copy) every matching document; the indexed candidates' ids suffice.
        const dir = sort[0].dir;
        const ids = (await db.findAsync(filter, { _id: 0, id: 1 })).map((d: Doc) => d.id).sort((a: number, b: number) => (a - b) * dir);
        return this.byIds(coll, limit ? ids.slice(skip, skip + limit) : ids.slice(skip), proj);
      }
      // The id index lists documents in id order, which the sort then only confirms (linear).
      const all = idOnly ? () => db.indexes.id.getAll() as Doc[] : () => this.allDocs(coll, db);
      // Only the page is copied out of nedb.
      return this.byIds(coll, this.orders.page(coll, all, sort, filter, skip, limit), proj);
    });
  }

  /**
   * A find over planned candidates: only those are matched; a small result is sorted here, a
   * large one with a sort walks the cached sorted order; without a sort, results come in id order.
   */
  private async findPlanned(coll: CollectionName, db: DS, found: { docs: Doc[]; keep: Predicate }, filter: Filter, opts: FindOptions): Promise<Doc[]> {
    const sort = opts.sort ?? [];
    const skip = Math.max(0, opts.skip ?? 0);
    const limit = opts.limit ?? 0;
    const matched = found.docs;
    // By id only: a numeric sort (TimSort is linear on the id-ordered lists that index ranges give).
    const byId = sort.length && sort.every((k) => k.field === 'id') ? sort[0].dir : 0;
    let page: Doc[];
    if (sort.length && !byId && matched.length > SORT_DIRECTLY) {
      const ids = this.orders.page(coll, () => this.allDocs(coll, db), sort, filter, skip, limit, found.keep);
      const docsById = new Map((db.indexes.id as NedbIndex).getMatching(ids).map((d) => [d.id, d]));
      page = ids.map((id) => docsById.get(id)!);
    } else {
      const ordered = sort.length && !byId ? sortDocs(matched.slice(), sort) : matched.slice().sort((a, b) => (a.id - b.id) * (byId || 1));
      page = limit ? ordered.slice(skip, skip + limit) : ordered.slice(skip);
    }
    return page.map((d) => this.files.restore(coll, project(d, opts.fields)));
  }

  /** Documents by id in the order of `ids` (read from the id index: nedb's own `$in` match is O(ids²)). */
  private async byIds(coll: CollectionName, ids: number[], proj?: Record<string, number>): Promise<Doc[]> {
    if (!ids.length) return [];
    const db = await this.db(coll);
    const fields = proj ? Object.keys(proj).filter((k) => k !== '_id' && k !== 'id') : undefined;
    const byId = new Map((db.indexes.id as NedbIndex).getMatching(ids).map((d) => [d.id, d]));
    return ids.map((id) => byId.get(id)).filter((d): d is Doc => !!d).map((d) => this.files.restore(coll, project(d, fields)));
  }

  findByIds(coll: CollectionName, ids: number[], fields?: string[]): Promise<Doc[]> {
    return this.read(() => this.byIds(coll, ids, fields && Object.fromEntries([['_id', 0], ['id', 1], ...fields.map((f) => [f, 1])])));
  }

  count(coll: CollectionName, filter: Filter): Promise<number> {
    return this.read(async () => {
      const db = await this.db(coll);
      const planned = this.planned(coll, db, filter);
      if (planned) return planned.docs.length;
      return Object.keys(filter).length ? db.countAsync(filter) : this.orders.total(coll, () => (db.getAllData() as unknown[]).length);
    });
  }

  findOne(coll: CollectionName, filter: Filter): Promise<Doc | null> {
    return this.read(async () => {
      const d = await (await this.db(coll)).findOneAsync(filter);
      return d ? this.files.restore(coll, clean(d)) : null;
    });
  }

  distinct(coll: CollectionName, field: string, filter: Filter): Promise<unknown[]> {
    return this.read(async () => {
      const db = await this.db(coll);
      if (!Object.keys(filter).length && COLUMNS[coll]?.(field)) return this.columns.get(coll, field, () => db.getAllData() as Doc[]).distinct();
      const docs = await (await this.db(coll)).findAsync(filter, { _id: 0, [field]: 1 });
      const out = new Set<unknown>();
      const path = field.split('.');
      for (const d of docs as Record<string, unknown>[]) {
        // A dotted projection comes back nested ({properties: {x}}), so walk the path.
        const v = path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), d);
        if (Array.isArray(v)) v.forEach((x) => out.add(x));
        else if (v !== undefined && v !== null) out.add(v);
      }
      return [...out];
    });
  }

  containing(coll: CollectionName, fields: string[], text: string, extra: string[] = []): Promise<TextHit[]> {
    return this.read(async () => {
      const db = await this.db(coll);
      return this.texts.search(coll, () => db.getAllData() as Doc[], fields, text, extra);
    });
  }

  linkedPage(q: LinkedKey, filter: Filter, opts: FindOptions = {}): Promise<IdPage> {
    return this.read(async () => {
      const to = LINKED[q.field];
      const db = await this.db('molecules');
      const ldb = await this.db(to);
      return this.linked.page(q, filter, opts, {
        molGen: this.generations.get('molecules') ?? 0,
        linkedGen: this.generations.get(to) ?? 0,
        docs: () => this.allDocs('molecules', db),
        linked: () => this.allDocs(to, ldb),
        matcher: (f) => matcher(f, nedbMatch),
        sorted: (sort) => this.orders.sortedWithOrder('molecules', () => this.allDocs('molecules', db), sort),
      });
    });
  }

  nextCounter(name: string, atLeast?: number): Promise<number> {
    return this.op(async () => {
      const v = await this.bump(name, 1);
      return atLeast !== undefined && v < atLeast ? this.bump(name, atLeast - v) : v;
    });
  }

  private async bump(name: string, n: number): Promise<number> {
    const res = (await (await this.w('counters')).updateAsync(
      { name },
      { $inc: { seq: n } },
      { upsert: true, returnUpdatedDocs: true },
    )) as { affectedDocuments: { seq: number } | null };
    return res.affectedDocuments!.seq;
  }

  insert(coll: CollectionName, doc: Record<string, unknown>): Promise<Doc> {
    return this.insertMany(coll, [doc]).then((d) => d[0]);
  }

  insertMany(coll: CollectionName, docs: Record<string, unknown>[]): Promise<Doc[]> {
    return this.op(async () => {
      if (!docs.length) return [];
      const last = await this.bump(`id:${coll}`, docs.length);
      const withIds = docs.map((d, i) => ({ ...d, id: last - docs.length + 1 + i }));
      for (const d of withIds) this.files.checkWrite(coll, d);
      const shared = SHARED[coll];
      if (shared) for (const d of withIds) shared.share(d);
      await (await this.w(coll)).insertAsync(withIds);
      return withIds as Doc[];
    });
  }

  upsert(coll: CollectionName, field: string, value: unknown, set: Record<string, unknown>) {
    return this.op(async () => {
      const existing = await (await this.w(coll)).findOneAsync({ [field]: value });
      if (existing) {
        const doc = await this.update(coll, existing.id as number, set);
        return { doc: doc!, created: false };
      }
      return { doc: await this.insert(coll, { ...set, [field]: value }), created: true };
    });
  }

  update(coll: CollectionName, id: number, set: Record<string, unknown>, unset: string[] = []) {
    return this.op(async () => {
      const mod: Record<string, unknown> = {};
      const s = { ...set };
      delete s.id;
      if (Object.keys(s).length) mod.$set = s;
      this.files.checkWrite(coll, s, true);
      SHARED[coll]?.shareSet(s);
      if (unset.length) mod.$unset = Object.fromEntries(unset.map((f) => [f, true]));
      if (!Object.keys(mod).length) return this.findOne(coll, { id });
      const res = (await (await this.w(coll)).updateAsync({ id }, mod, { returnUpdatedDocs: true })) as {
        affectedDocuments: Record<string, unknown> | null;
      };
      return res.affectedDocuments ? this.files.restore(coll, clean(res.affectedDocuments)) : null;
    });
  }

  replace(coll: CollectionName, doc: Doc): Promise<void> {
    return this.op(async () => {
      const { _id, ...rest } = doc as Record<string, unknown>;
      void _id;
      this.files.checkWrite(coll, rest);
      SHARED[coll]?.share(rest);
      const n = await (await this.w(coll)).updateAsync({ id: doc.id }, rest);
      if (!n.numAffected) await (await this.w(coll)).insertAsync(rest);
    });
  }

  remove(coll: CollectionName, ids: number[]): Promise<number> {
    return this.op(async () => (await this.w(coll)).removeAsync({ id: { $in: ids } }, { multi: true }));
  }

  link(moleculeId: number, field: LinkField, ids: number[]): Promise<void> {
    return this.op(async () => {
      if (ids.length) await (await this.w('molecules')).updateAsync({ id: moleculeId }, { $addToSet: { [field]: { $each: ids } } });
    });
  }

  unlink(moleculeId: number, field: LinkField, ids: number[]): Promise<void> {
    return this.op(async () => {
      const m = await (await this.w('molecules')).findOneAsync({ id: moleculeId });
      if (!m) return;
      const cur = (m[field] as number[] | undefined) ?? [];
      await (await this.w('molecules')).updateAsync({ id: moleculeId }, { $set: { [field]: cur.filter((x) => !ids.includes(x)) } });
    });
  }

  setProperties(moleculeId: number, props: Record<string, unknown> | null): Promise<void> {
    return this.op(async () => {
      if (props === null) {
        await (await this.w('molecules')).updateAsync({ id: moleculeId }, { $set: { properties: null } });
        return;
      }
      const m = await (await this.w('molecules')).findOneAsync({ id: moleculeId });
      if (!m) return;
      const cur = m.properties as Record<string, unknown> | null | undefined;
      const id = (cur?.id as number | undefined) ?? (await this.bump('id:properties', 1));
      const properties = { ...(cur ?? {}), ...props, id };
      SHARED.molecules?.share({ properties });
      await (await this.w('molecules')).updateAsync({ id: moleculeId }, { $set: { properties } });
    });
  }

  close(): Promise<void> {
    return this.files.close();
  }
}
