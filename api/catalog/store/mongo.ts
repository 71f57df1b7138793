/**
 * MongoDB store through mongoose's connection (native collections, no schemas: the catalog
 * resources define the fields). Null placement in sorts is emulated with a computed key.
 */
import mongoose from 'mongoose';
import { storeIndexes } from '../schema/resources.ts';
import { COLLECTIONS, type CatalogStore, type CollectionName, type Doc, type Filter, type FindOptions, type LinkField, type TextHit } from './types.ts';

/**
 * The lists come from the resource declarations (api/catalog/schema/: `index`).
 * Molecules: besides the look-ups of the API and the importer, what COCONUT's search
 * (`POST /api/search`, api/catalog/search/coconut/) filters on: InChI, formula, the placeholder
 * flag (counted before every structure search), and the property fields of its filter language
 * whose values are selective (the counts that are mostly 0 or 1 and the booleans are left to the
 * others: an index on them would rarely be chosen).
 */
const INDEXES = Object.fromEntries(COLLECTIONS.map((c) => [c, storeIndexes(c).mongo])) as Record<CollectionName, string[]>;

/**
 * Unique among the documents that have the field (sparse: a molecule without a structure has no
 * InChIKey); declared `index: {mongo: 'unique'}`. Mutate checks duplicates first, but without the
 * embedded store's lock two requests could race: the database then refuses the second structure
 * or e-mail instead of storing both.
 */
const UNIQUE = Object.fromEntries(COLLECTIONS.map((c) => [c, storeIndexes(c).mongoUnique])) as Partial<Record<CollectionName, string[]>>;

/** Our neutral filter uses top-level `$not: {...}`; MongoDB spells that `$nor: [...]`. */
export function toMongoFilter(f: unknown): unknown {
  if (Array.isArray(f)) return f.map(toMongoFilter);
  if (!f || typeof f !== 'object' || f instanceof RegExp) return f;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f as Record<string, unknown>)) {
    if (k === '$not') out.$nor = [...((out.$nor as unknown[]) ?? []), toMongoFilter(v)];
    else out[k] = toMongoFilter(v);
  }
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function clean(d: Record<string, unknown>): Doc {
  const { _id, ...rest } = d;
  void _id;
  return rest as Doc;
}

/**
 * MongoDB answers a dotted projection (`properties.x`) with an empty parent (`properties: {}`)
 * where the parent holds no such field; the port leaves the field out, as the embedded store does.
 */
function dropEmptyParents(d: Record<string, unknown>, path: string[]): void {
  const v = d[path[0]];
  if (path.length < 2 || !v || typeof v !== 'object' || Array.isArray(v) || v instanceof Date) return;
  dropEmptyParents(v as Record<string, unknown>, path.slice(1));
  if (!Object.keys(v).length) delete d[path[0]];
}

/** The native collection calls MongoStore makes (the MongoDB driver's `Collection`). */
export type MongoCollection = Pick<
  mongoose.mongo.Collection,
  'aggregate' | 'countDocuments' | 'createIndex' | 'deleteMany' | 'distinct' | 'findOne' | 'findOneAndUpdate' | 'insertMany' | 'replaceOne' | 'updateOne'
>;

/**
 * What MongoStore uses of a connection: a mongoose connection (`open`), or, in the tests, an
 * in-process stand-in that runs the same calls through mingo (test/helpers/mingo-mongo.ts).
 */
export interface MongoConnection {
  collection(name: string): MongoCollection;
  close(): Promise<void>;
}

export class MongoStore implements CatalogStore {
  readonly kind = 'mongo' as const;
  private constructor(private readonly conn: MongoConnection) {}

  static async open(url: string): Promise<MongoStore> {
    const conn = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
    return MongoStore.over(conn);
  }

  /** The store over an open connection: creates the indexes (each a no-op when it exists). */
  static async over(conn: MongoConnection): Promise<MongoStore> {
    const s = new MongoStore(conn);
    for (const [name, fields] of Object.entries(INDEXES)) {
      const c = s.col(name as CollectionName);
      await c.createIndex({ id: 1 }, { unique: true });
      for (const f of fields) await c.createIndex({ [f]: 1 });
      for (const f of UNIQUE[name as CollectionName] ?? []) await c.createIndex({ [f]: 1 }, { unique: true, sparse: true });
    }
    await s.col('counters').createIndex({ name: 1 }, { unique: true });
    return s;
  }

  private col(name: string) {
    return this.conn.collection(name);
  }

  async find(coll: CollectionName, filter: Filter, opts: FindOptions = {}): Promise<Doc[]> {
    const pipeline: Record<string, unknown>[] = [{ $match: toMongoFilter(filter) }];
    const sort = opts.sort ?? [];
    if (sort.length) {
      const add: Record<string, unknown> = {};
      const order: Record<string, 1 | -1> = {};
      sort.forEach((k, i) => {
        add[`__n${i}`] = { $cond: [{ $eq: [{ $ifNull: [`$${k.field}`, null] }, null] }, k.nulls === 'last' ? 1 : 0, k.nulls === 'last' ? 0 : 1] };
        order[`__n${i}`] = 1;
        order[k.field] = k.dir;
      });
      pipeline.push({ $addFields: add }, { $sort: order });
    }
    if (opts.skip) pipeline.push({ $skip: opts.skip });
    if (opts.limit) pipeline.push({ $limit: opts.limit });
    const proj: Record<string, 0 | 1> = opts.fields ? Object.fromEntries([['_id', 0], ['id', 1], ...opts.fields.map((f) => [f, 1])]) : { _id: 0 };
    if (!opts.fields) sort.forEach((_, i) => (proj[`__n${i}`] = 0));
    pipeline.push({ $project: proj });
    // A sort over a whole collection without an index may exceed the in-memory sort limit.
    const docs = await this.col(coll).aggregate(pipeline, { allowDiskUse: true }).toArray();
    const dotted = (opts.fields ?? []).filter((f) => f.includes('.')).map((f) => f.split('.'));
    return docs.map((d) => {
      const out = clean(d as Record<string, unknown>);
      for (const path of dotted) dropEmptyParents(out, path);
      return out;
    });
  }

  count(coll: CollectionName, filter: Filter) {
    return this.col(coll).countDocuments(toMongoFilter(filter) as Filter);
  }

  async findOne(coll: CollectionName, filter: Filter) {
    const d = await this.col(coll).findOne(toMongoFilter(filter) as Filter, { projection: { _id: 0 } });
    return d ? clean(d) : null;
  }

  async findByIds(coll: CollectionName, ids: number[], fields?: string[]) {
    const docs = await this.find(coll, { id: { $in: ids } }, fields ? { fields } : {});
    const m = new Map(docs.map((d) => [d.id, d]));
    return ids.map((i) => m.get(i)).filter((d): d is Doc => !!d);
  }

  async distinct(coll: CollectionName, field: string, filter: Filter) {
    return (await this.col(coll).distinct(field, toMongoFilter(filter) as Filter)).filter((v) => v !== null);
  }

  async containing(coll: CollectionName, fields: string[], text: string, extra: string[] = []): Promise<TextHit[]> {
    const q = text.toLowerCase();
    const pattern = { $regex: escapeRegex(text), $options: 'i' };
    const docs = await this.find(coll, { $or: fields.map((f) => ({ [f]: pattern })) }, { fields: [...fields, ...extra] });
    const valuesOf = (d: Doc, path: string): string[] => {
      const v = path.split('.').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), d);
      return typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    };
    const hits: TextHit[] = [];
    for (const d of docs) {
      let rank = Infinity;
      fields.forEach((f, k) => {
        for (const v of valuesOf(d, f)) {
          const low = v.toLowerCase();
          if (low === q) rank = Math.min(rank, k);
          else if (low.includes(q)) rank = Math.min(rank, fields.length + k);
        }
      });
      // The regex matched with MongoDB's case folding; JavaScript's decides the rank (and the hit).
      if (rank === Infinity) continue;
      const hit: TextHit = { id: d.id, rank };
      for (const f of extra) hit[f] = d[f];
      hits.push(hit);
    }
    return hits;
  }

  async nextCounter(name: string, atLeast?: number) {
    // Each step is one atomic $inc, so every value handed out is distinct even between processes.
    const v = await this.bump(name, 1);
    return atLeast !== undefined && v < atLeast ? this.bump(name, atLeast - v) : v;
  }

  private async bump(name: string, n: number): Promise<number> {
    const r = await this.col('counters').findOneAndUpdate({ name }, { $inc: { seq: n } }, { upsert: true, returnDocument: 'after' });
    return (r as unknown as { seq: number }).seq;
  }

  async insert(coll: CollectionName, doc: Record<string, unknown>) {
    return (await this.insertMany(coll, [doc]))[0];
  }

  async insertMany(coll: CollectionName, docs: Record<string, unknown>[]) {
    if (!docs.length) return [];
    const last = await this.bump(`id:${coll}`, docs.length);
    const withIds = docs.map((d, i) => ({ ...d, id: last - docs.length + 1 + i }));
    await this.col(coll).insertMany(withIds.map((d) => ({ ...d })));
    return withIds as Doc[];
  }

  async upsert(coll: CollectionName, field: string, value: unknown, set: Record<string, unknown>) {
    const existing = await this.findOne(coll, { [field]: value });
    if (existing) return { doc: (await this.update(coll, existing.id, set))!, created: false };
    return { doc: await this.insert(coll, { ...set, [field]: value }), created: true };
  }

  async update(coll: CollectionName, id: number, set: Record<string, unknown>, unset: string[] = []) {
    const s = { ...set };
    delete s.id;
    const mod: Record<string, unknown> = {};
    if (Object.keys(s).length) mod.$set = s;
    if (unset.length) mod.$unset = Object.fromEntries(unset.map((f) => [f, '']));
    if (Object.keys(mod).length) await this.col(coll).updateOne({ id }, mod);
    return this.findOne(coll, { id });
  }

  async replace(coll: CollectionName, doc: Doc) {
    await this.col(coll).replaceOne({ id: doc.id }, { ...doc }, { upsert: true });
  }

  async remove(coll: CollectionName, ids: number[]) {
    return (await this.col(coll).deleteMany({ id: { $in: ids } })).deletedCount;
  }

  async link(moleculeId: number, field: LinkField, ids: number[]) {
    if (ids.length) await this.col('molecules').updateOne({ id: moleculeId }, { $addToSet: { [field]: { $each: ids } } });
  }

  async unlink(moleculeId: number, field: LinkField, ids: number[]) {
    await this.col('molecules').updateOne({ id: moleculeId }, { $pull: { [field]: { $in: ids } } } as never);
  }

  async setProperties(moleculeId: number, props: Record<string, unknown> | null) {
    if (props === null) {
      await this.col('molecules').updateOne({ id: moleculeId }, { $set: { properties: null } });
      return;
    }
    const m = await this.findOne('molecules', { id: moleculeId });
    if (!m) return;
    const cur = m.properties as Record<string, unknown> | null | undefined;
    const id = (cur?.id as number | undefined) ?? (await this.bump('id:properties', 1));
    await this.col('molecules').updateOne({ id: moleculeId }, { $set: { properties: { ...(cur ?? {}), ...props, id } } });
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async close() {
    await this.conn.close();
  }
}
