/**
 * An in-process stand-in for the part of MongoDB's Node driver that MongoStore
 * (api/catalog/store/mongo.ts) calls on a mongoose connection's native collections, so that its
 * own code runs in every test without a server: `MongoStore.over(new MingoConnection())`.
 * mingo (MongoDB's query language over in-memory objects) executes every filter, aggregation
 * pipeline, projection and update operator MongoStore builds; this file adds what a server does
 * around them, as the server does it: documents stored and returned as the BSON round trip leaves
 * them (copies, `undefined` as null, `_id` added to the caller's inserted objects), natural
 * (insertion) order, the indexes MongoStore defines recorded and unique ones enforced with the
 * server's duplicate-key error (test/helpers/mingo-indexes.ts), ordered `insertMany` stopping at
 * the first error, upserts built from the filter's equalities, and the server's refusals that mingo
 * lets pass (an array operator on a field holding a non-array, two operators on one path, a
 * changed `_id`, an update document without operators).
 * What it cannot show: which index a real server would use, transactions and concurrency between
 * clients, performance, collations, and the order of ties in a sort (a server's is unspecified).
 */
import mingo, { Query } from 'mingo';
import { update as applyUpdate } from 'mingo/updater';
import mongoose from 'mongoose';
import type { MongoCollection, MongoConnection } from '../../api/catalog/store/mongo.ts';
import { bson, canon, Indexes, valuesAt, type IndexInfo, type IndexOptions } from './mingo-indexes.ts';

const { ObjectId, MongoServerError, MongoBulkWriteError, MongoInvalidArgumentError } = mongoose.mongo;
type D = Record<string, unknown>;

const ARRAY_OPS = new Set(['$addToSet', '$push', '$pull', '$pullAll', '$pop']);
const UPDATE_OPS = new Set([...ARRAY_OPS, '$set', '$unset', '$inc', '$min', '$max', '$mul', '$rename', '$currentDate', '$setOnInsert']);

const badValue = (message: string, code = 2, codeName = 'BadValue') => new MongoServerError({ message, code, codeName });

/** The server's checks of an update document that mingo does not make. */
function checkUpdate(doc: D | null, upd: D): void {
  const ops = Object.keys(upd);
  if (!ops.length || ops.some((k) => !k.startsWith('$'))) throw new MongoInvalidArgumentError('Update document requires atomic operators');
  const paths: string[] = [];
  for (const op of ops) {
    if (!UPDATE_OPS.has(op)) throw badValue(`Unknown modifier: ${op}`, 9, 'FailedToParse');
    for (const [path, arg] of Object.entries(upd[op] as D)) {
      const clash = paths.find((p) => p === path || p.startsWith(`${path}.`) || path.startsWith(`${p}.`));
      if (clash) throw badValue(`Updating the path '${path}' would create a conflict at '${clash}'`, 40, 'ConflictingUpdateOperators');
      paths.push(path);
      if (path === '_id' || path.startsWith('_id.')) throw badValue("Performing an update on the path '_id' would modify the immutable field '_id'", 66, 'ImmutableField');
      const [cur] = doc ? valuesAt(doc, path.split('.')) : [];
      if (cur === undefined) continue;
      if (ARRAY_OPS.has(op) && !Array.isArray(cur)) {
        throw badValue(op === '$addToSet' || op === '$push' ? `Cannot apply ${op} to non-array field. Field named '${path}' has non-array type ${cur === null ? 'null' : typeof cur}` : `Cannot apply ${op} to a non-array value`);
      }
      if ((op === '$inc' || op === '$mul') && typeof cur !== 'number') throw badValue(`Cannot apply ${op} to a value of non-numeric type`, 14, 'TypeMismatch');
      if ((op === '$inc' || op === '$mul') && typeof arg !== 'number') throw badValue(`Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument`, 14, 'TypeMismatch');
    }
  }
}

/** The document an upsert starts from: the filter's equality conditions (top level and under `$and`). */
function seedOf(filter: D): D {
  const out: D = {};
  const take = (f: D) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and') (v as D[]).forEach(take);
      else if (k.startsWith('$')) continue;
      else if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp) && !(v instanceof ObjectId) && Object.keys(v).some((x) => x.startsWith('$'))) {
        if ('$eq' in (v as D)) applyUpdate(out, { $set: { [k]: (v as D).$eq } });
      } else applyUpdate(out, { $set: { [k]: v } });
    }
  };
  take(filter);
  return out;
}

/** A result list as the driver's cursors give it. */
function cursor(run: () => D[]) {
  const opts: { sort?: D; skip?: number; limit?: number; projection?: D } = {};
  const c = {
    sort: (s: D) => ((opts.sort = s), c),
    skip: (n: number) => ((opts.skip = n), c),
    limit: (n: number) => ((opts.limit = n), c),
    project: (p: D) => ((opts.projection = p), c),
    toArray: async () => {
      const docs = run();
      if (!opts.sort && !opts.skip && !opts.limit && !opts.projection) return docs;
      const stages: D[] = [];
      if (opts.sort) stages.push({ $sort: opts.sort });
      if (opts.skip) stages.push({ $skip: opts.skip });
      if (opts.limit) stages.push({ $limit: opts.limit });
      if (opts.projection) stages.push({ $project: opts.projection });
      return mingo.aggregate(docs, stages) as D[];
    },
    async *[Symbol.asyncIterator]() {
      yield* await c.toArray();
    },
  };
  return c;
}

/** One collection: its documents in natural order and its indexes. */
export class MingoCollection {
  private docs: D[] = [];
  private readonly idx: Indexes;

  constructor(private readonly conn: MingoConnection, readonly collectionName: string) {
    this.idx = new Indexes(`${conn.name}.${collectionName}`);
  }

  private matching(filter: D): D[] {
    this.conn.check();
    const q = new Query(filter);
    return this.docs.filter((d) => q.test(d));
  }

  async createIndex(spec: Record<string, 1 | -1>, opts: IndexOptions = {}): Promise<string> {
    this.conn.check();
    return this.idx.create(spec, opts, this.docs);
  }

  async indexes(): Promise<IndexInfo[]> {
    return this.idx.list.map((i) => ({ ...i, key: { ...i.key } }));
  }

  aggregate(pipeline: D[], _opts: { allowDiskUse?: boolean } = {}) {
    return cursor(() => {
      // The first $match reads the stored documents; the stages after it get copies.
      const first = pipeline[0] && '$match' in pipeline[0] ? (pipeline[0].$match as D) : null;
      const input = (first ? this.matching(first) : (this.conn.check(), this.docs)).map(bson);
      return mingo.aggregate(input, first ? pipeline.slice(1) : pipeline) as D[];
    });
  }

  find(filter: D = {}, opts: { sort?: D; skip?: number; limit?: number; projection?: D } = {}) {
    const c = cursor(() => this.matching(filter).map(bson));
    if (opts.sort) c.sort(opts.sort);
    if (opts.skip) c.skip(opts.skip);
    if (opts.limit) c.limit(opts.limit);
    if (opts.projection) c.project(opts.projection);
    return c;
  }

  async findOne(filter: D = {}, opts: { projection?: D } = {}): Promise<D | null> {
    const [d] = await this.find(filter, { ...opts, limit: 1 }).toArray();
    return d ?? null;
  }

  async countDocuments(filter: D = {}): Promise<number> {
    return this.matching(filter).length;
  }

  /** The values of `key` over the matching documents, arrays flattened one level, each once (null included, missing not). */
  async distinct(key: string, filter: D = {}): Promise<unknown[]> {
    const seen = new Map<string, unknown>();
    for (const d of this.matching(filter)) {
      for (const v of valuesAt(d, key.split('.'))) for (const x of Array.isArray(v) ? v : [v]) if (!seen.has(canon(x))) seen.set(canon(x), bson(x));
    }
    return [...seen.values()];
  }

  /** Ordered: stops at the first refused document (those before it stay inserted). Adds `_id` to the caller's objects, as the driver does. */
  async insertMany(docs: D[]) {
    this.conn.check();
    const insertedIds: Record<number, unknown> = {};
    for (const [i, d] of docs.entries()) {
      d._id ??= new ObjectId();
      const stored = bson(d);
      try {
        this.idx.write(null, stored);
      } catch (err) {
        const e = err as InstanceType<typeof MongoServerError>;
        const result = { insertedCount: i, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0, insertedIds, upsertedIds: {} };
        throw new MongoBulkWriteError({ message: e.message, code: 11000, writeErrors: [{ index: i, code: 11000, errmsg: e.message }] } as never, result as never);
      }
      this.docs.push(stored);
      insertedIds[i] = d._id;
    }
    return { acknowledged: true, insertedCount: docs.length, insertedIds };
  }

  /** Applies `upd` to the first match, or inserts the upsert's document; the stored document after, or null. */
  private modify(filter: D, upd: D, upsert: boolean): { after: D | null; matched: number; modified: number; upsertedId?: unknown } {
    const [cur] = this.matching(filter);
    checkUpdate(cur ?? null, upd);
    const ops = bson(upd);
    if (!cur) {
      if (!upsert) return { after: null, matched: 0, modified: 0 };
      const doc = seedOf(filter);
      applyUpdate(doc, ops);
      doc._id ??= new ObjectId();
      const stored = { _id: doc._id, ...doc };
      this.idx.write(null, stored);
      this.docs.push(stored);
      return { after: stored, matched: 0, modified: 0, upsertedId: stored._id };
    }
    const next = bson(cur);
    applyUpdate(next, ops);
    const modified = canon(next) !== canon(cur);
    if (modified) {
      this.idx.write(cur, next);
      this.docs[this.docs.indexOf(cur)] = next;
    }
    return { after: next, matched: 1, modified: Number(modified) };
  }

  async updateOne(filter: D, upd: D, opts: { upsert?: boolean } = {}) {
    const r = this.modify(filter, upd, !!opts.upsert);
    return { acknowledged: true, matchedCount: r.matched, modifiedCount: r.modified, upsertedCount: r.upsertedId ? 1 : 0, upsertedId: r.upsertedId ?? null };
  }

  /** As driver 6+: the document itself (before or after), not a result record. */
  async findOneAndUpdate(filter: D, upd: D, opts: { upsert?: boolean; returnDocument?: 'before' | 'after'; projection?: D } = {}) {
    const [before] = this.matching(filter).map(bson);
    const r = this.modify(filter, upd, !!opts.upsert);
    const doc = opts.returnDocument === 'after' ? r.after && bson(r.after) : (before ?? null);
    return doc && opts.projection ? (mingo.aggregate([doc], [{ $project: opts.projection }])[0] as D) : doc;
  }

  async replaceOne(filter: D, replacement: D, opts: { upsert?: boolean } = {}) {
    if (Object.keys(replacement).some((k) => k.startsWith('$'))) throw new MongoInvalidArgumentError('Replacement document must not contain atomic operators');
    const [cur] = this.matching(filter);
    const doc = bson(replacement);
    if (cur) {
      if (doc._id !== undefined && canon(doc._id) !== canon(cur._id)) throw badValue("After applying the update, the (immutable) field '_id' was found to have been altered", 66, 'ImmutableField');
      const next = { _id: cur._id, ...doc };
      this.idx.write(cur, next);
      this.docs[this.docs.indexOf(cur)] = next;
      return { acknowledged: true, matchedCount: 1, modifiedCount: Number(canon(next) !== canon(cur)), upsertedCount: 0, upsertedId: null };
    }
    if (!opts.upsert) return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 0, upsertedId: null };
    const stored = { _id: doc._id ?? new ObjectId(), ...doc };
    this.idx.write(null, stored);
    this.docs.push(stored);
    return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: stored._id };
  }

  async deleteMany(filter: D = {}) {
    const gone = new Set(this.matching(filter));
    for (const d of gone) this.idx.write(d, null);
    this.docs = this.docs.filter((d) => !gone.has(d));
    return { acknowledged: true, deletedCount: gone.size };
  }
}

/** A database of `MingoCollection`s, created on first use as MongoDB creates them. */
export class MingoConnection implements MongoConnection {
  private readonly colls = new Map<string, MingoCollection>();
  private closed = false;

  constructor(readonly name = 'natprod_test') {}

  /** Operations after `close` fail, as a closed client's do. */
  check(): void {
    if (this.closed) throw new mongoose.mongo.MongoNotConnectedError('Client must be connected before running operations');
  }

  /** The collection with its stand-in methods (for tests that read what the store wrote). */
  raw(name: string): MingoCollection {
    let c = this.colls.get(name);
    if (!c) this.colls.set(name, (c = new MingoCollection(this, name)));
    return c;
  }

  collection(name: string): MongoCollection {
    // The stand-in's methods take and give what the driver's do, without its generic signatures.
    return this.raw(name) as unknown as MongoCollection;
  }

  async dropDatabase(): Promise<boolean> {
    this.colls.clear();
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
