/**
 * Embedded store: one @seald-io/nedb file per collection under `dataDir`, kept in memory.
 * Cross-process safety: every call runs under `FileLock` (DATA_DIR/catalog.lock) and first
 * reloads any collection file another process changed (inode/size/mtime signature).
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import NedbModule from '@seald-io/nedb';
import { createRequire } from 'node:module';
import { FileLock } from './lock.ts';
import { sortDocs } from './sort.ts';
import { COLLECTIONS, type CatalogStore, type CollectionName, type Doc, type Filter, type FindOptions, type LinkField } from './types.ts';

type Name = CollectionName | 'counters';
// CommonJS package: under NodeNext the default import is typed as the module namespace
type NedbClass = typeof import('@seald-io/nedb').default;
const Datastore = ((NedbModule as unknown as { default?: NedbClass }).default ?? NedbModule) as unknown as NedbClass;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- nedb's typings lose the schema type
type DS = any;
// nedb's own matcher (the one its find uses), to filter live documents without copying them
const nedbMatch = (createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as { match: (d: unknown, q: unknown) => boolean }).match;

const INDEXES: Record<CollectionName, string[]> = {
  molecules: ['identifier', 'standard_inchi_key', 'name', 'organism_ids', 'citation_ids', 'collection_ids', 'properties.molecular_weight'],
  organisms: ['name'],
  citations: ['doi'],
  collections: ['title', 'identifier'],
  users: ['email'],
  tokens: ['user_id'],
};

function clean(doc: unknown): Doc {
  const { _id, ...rest } = doc as Record<string, unknown>;
  void _id;
  return rest as Doc;
}

export class EmbeddedStore implements CatalogStore {
  readonly kind = 'embedded' as const;
  private readonly dbs = new Map<Name, DS>();
  private readonly sigs = new Map<Name, string>();
  private readonly dirty = new Set<Name>();
  /** Bumped by every write and reload; keys the sorted-order cache. */
  private version = 0;
  private sorted = new Map<string, { version: number; docs: Doc[] }>();
  private readonly lock: FileLock;

  private constructor(private readonly dir: string) {
    this.lock = new FileLock(join(dir, 'catalog.lock'));
  }

  static async open(dataDir: string): Promise<EmbeddedStore> {
    await mkdir(dataDir, { recursive: true });
    return new EmbeddedStore(dataDir);
  }

  /**
   * nedb rewrites (compacts) the whole file on every load; that would make every other process
   * see a change and reload in turn. So loads skip the rewrite; `close()` compacts what we wrote.
   */
  private async load(db: DS): Promise<void> {
    const p = db.persistence;
    const orig = p.persistCachedDatabaseAsync;
    p.persistCachedDatabaseAsync = async () => undefined;
    try {
      await db.loadDatabaseAsync();
    } finally {
      p.persistCachedDatabaseAsync = orig;
    }
  }

  /** Opens a collection's file on first use (the token CLI never loads the molecules). */
  private async ensure(name: Name): Promise<DS> {
    let db = this.dbs.get(name);
    if (db) return db;
    db = new Datastore<Record<string, unknown>>({ filename: join(this.dir, `${name}.db`) });
    await this.load(db);
    const want = [name === 'counters' ? 'name' : 'id', ...(name === 'counters' ? [] : INDEXES[name])];
    for (const f of want) {
      if (!db.indexes[f]) await db.ensureIndexAsync({ fieldName: f, unique: f === 'id' || name === 'counters' });
    }
    this.dbs.set(name, db);
    this.sigs.set(name, await this.sig(name));
    return db;
  }

  private async sig(name: Name): Promise<string> {
    try {
      const st = await stat(join(this.dir, `${name}.db`));
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  private async snapshot(): Promise<void> {
    for (const name of this.dbs.keys()) this.sigs.set(name, await this.sig(name));
  }

  /** Runs fn under the lock after reloading what other processes changed. */
  private op<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      for (const [name, db] of this.dbs) {
        if ((await this.sig(name)) !== this.sigs.get(name)) {
          await this.load(db);
          this.version++;
        }
      }
      try {
        return await fn();
      } finally {
        await this.snapshot();
      }
    });
  }

  /** For writes: also invalidates the sorted-order cache. */
  private async w(name: Name): Promise<DS> {
    this.version++;
    this.dirty.add(name);
    return this.db(name);
  }

  /** Only called inside `op` (under the lock). */
  private async db(name: Name): Promise<DS> {
    return this.ensure(name);
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.op(fn);
  }

  find(coll: CollectionName, filter: Filter, opts: FindOptions = {}): Promise<Doc[]> {
    return this.op(async () => {
      const db = await this.db(coll);
      const proj = opts.fields ? Object.fromEntries([['_id', 0], ['id', 1], ...opts.fields.map((f) => [f, 1])]) : undefined;
      const sort = opts.sort ?? [];
      const skip = Math.max(0, opts.skip ?? 0);
      const limit = opts.limit ?? 0;
      const idOnly = sort.every((k) => k.field === 'id');
      if (idOnly) {
        let cur = db.findAsync(filter, proj);
        if (sort.length) cur = cur.sort({ id: sort[0].dir });
        if (skip) cur = cur.skip(skip);
        if (limit) cur = cur.limit(limit);
        return (await cur).map(clean);
      }
      // In memory over nedb's live documents (no copies): nedb's own sort is slow (~10 µs per
      // comparison) and cannot place nulls PostgreSQL-style. Only the page is copied out.
      // The full sorted order is cached until the next write, so paging through a listing costs
      // one sort; the filter is then applied along that order until the page is full.
      const key = `${coll}:${JSON.stringify(sort)}`;
      let cached = this.sorted.get(key);
      if (!cached || cached.version !== this.version) {
        cached = { version: this.version, docs: sortDocs([...(db.getAllData() as Doc[])], sort) };
        if (this.sorted.size >= 16) this.sorted.clear();
        this.sorted.set(key, cached);
      }
      const page: number[] = [];
      const end = limit ? skip + limit : Infinity;
      const any = !Object.keys(filter).length;
      let seen = 0;
      for (const d of cached.docs) {
        if (seen >= end) break;
        if (!any && !nedbMatch(d, filter)) continue;
        if (seen++ >= skip) page.push(d.id);
      }
      return this.byIds(coll, page, proj);
    });
  }

  private async byIds(coll: CollectionName, ids: number[], proj?: Record<string, number>): Promise<Doc[]> {
    if (!ids.length) return [];
    const docs = (await (await this.db(coll)).findAsync({ id: { $in: ids } }, proj)).map(clean);
    const byId = new Map(docs.map((d: Doc) => [d.id, d]));
    return ids.map((id) => byId.get(id)).filter((d): d is Doc => !!d);
  }

  findByIds(coll: CollectionName, ids: number[]): Promise<Doc[]> {
    return this.op(() => this.byIds(coll, ids));
  }

  count(coll: CollectionName, filter: Filter): Promise<number> {
    return this.op(async () => {
      const db = await this.db(coll);
      return Object.keys(filter).length ? db.countAsync(filter) : (db.getAllData() as unknown[]).length;
    });
  }

  findOne(coll: CollectionName, filter: Filter): Promise<Doc | null> {
    return this.op(async () => {
      const d = await (await this.db(coll)).findOneAsync(filter);
      return d ? clean(d) : null;
    });
  }

  distinct(coll: CollectionName, field: string, filter: Filter): Promise<unknown[]> {
    return this.op(async () => {
      const docs = await (await this.db(coll)).findAsync(filter, { _id: 0, [field]: 1 });
      const out = new Set<unknown>();
      for (const d of docs as Record<string, unknown>[]) {
        const v = d[field];
        if (Array.isArray(v)) v.forEach((x) => out.add(x));
        else if (v !== undefined && v !== null) out.add(v);
      }
      return [...out];
    });
  }

  nextCounter(name: string): Promise<number> {
    return this.op(() => this.bump(name, 1));
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
      if (unset.length) mod.$unset = Object.fromEntries(unset.map((f) => [f, true]));
      if (!Object.keys(mod).length) return this.findOne(coll, { id });
      const res = (await (await this.w(coll)).updateAsync({ id }, mod, { returnUpdatedDocs: true })) as {
        affectedDocuments: Record<string, unknown> | null;
      };
      return res.affectedDocuments ? clean(res.affectedDocuments) : null;
    });
  }

  replace(coll: CollectionName, doc: Doc): Promise<void> {
    return this.op(async () => {
      const { _id, ...rest } = doc as Record<string, unknown>;
      void _id;
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
      await (await this.w('molecules')).updateAsync({ id: moleculeId }, { $set: { properties: { ...(cur ?? {}), ...props, id } } });
    });
  }

  async close(): Promise<void> {
    await this.lock.run(async () => {
      for (const name of this.dirty) await this.dbs.get(name)?.compactDatafileAsync();
    });
    this.dbs.clear();
  }
}
