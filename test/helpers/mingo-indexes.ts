/**
 * The stand-in's storage rules (test/helpers/mingo-mongo.ts): what the driver's BSON round trip
 * does to a document, how MongoDB resolves a dotted path, and its indexes: each definition kept as
 * `listIndexes` reports it, and unique ones enforced as the server does (E11000, code 11000):
 * a missing field is indexed as null unless the index is sparse, a null value always is (a sparse
 * unique index refuses a second null), an array gives one key per element, and numbers compare by
 * value whatever their BSON type.
 */
import mongoose from 'mongoose';

const { ObjectId, MongoServerError } = mongoose.mongo;
type D = Record<string, unknown>;

/**
 * A value after the driver serialized it and read it back: `undefined` becomes null (the driver's
 * default, `ignoreUndefined: false`), Dates, RegExps and ObjectIds are kept, objects and arrays
 * are copied.
 */
export function bson<T>(v: T): T {
  if (v === undefined || v === null) return null as T;
  if (typeof v !== 'object') return v;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (v instanceof RegExp || v instanceof ObjectId) return v;
  if (Array.isArray(v)) return v.map(bson) as T;
  const out: D = {};
  for (const [k, x] of Object.entries(v as D)) out[k] = bson(x);
  return out as T;
}

/** The values a dotted path reaches (through arrays of documents too, as MongoDB's queries and indexes do); none where it is missing. */
export function valuesAt(doc: unknown, path: string[]): unknown[] {
  if (!path.length) return [doc];
  if (Array.isArray(doc)) return doc.flatMap((e) => (e && typeof e === 'object' && !Array.isArray(e) ? valuesAt(e, path) : []));
  if (!doc || typeof doc !== 'object') return [];
  const [head, ...rest] = path;
  if (!(head in (doc as D))) return [];
  return valuesAt((doc as D)[head], rest);
}

/** A value's identity for MongoDB's equality (1 and 1.0 are one key; documents compare field by field, in order). */
export function canon(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return `n:${Object.is(v, -0) ? 0 : v}`;
  if (typeof v === 'string') return `s:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `b:${v}`;
  if (v instanceof Date) return `d:${v.getTime()}`;
  if (v instanceof ObjectId) return `o:${v.toHexString()}`;
  if (v instanceof RegExp) return `r:${v.source}/${v.flags}`;
  if (Array.isArray(v)) return `a:[${v.map(canon).join(',')}]`;
  return `{${Object.entries(v as D).map(([k, x]) => `${JSON.stringify(k)}:${canon(x)}`).join(',')}}`;
}

/** An index as `listIndexes` reports it. */
export interface IndexInfo {
  v: 2;
  key: Record<string, 1 | -1>;
  name: string;
  unique?: true;
  sparse?: true;
}

export interface IndexOptions {
  name?: string;
  unique?: boolean;
  sparse?: boolean;
}

/** The index definitions of one collection, and the keys of its unique ones. */
export class Indexes {
  /** `_id_` is unique without saying so, as the server lists it. */
  readonly list: IndexInfo[] = [{ v: 2, key: { _id: 1 }, name: '_id_' }];
  /** Per unique index: its keys and the document holding each. */
  private readonly held = new Map<string, Map<string, D>>([['_id_', new Map()]]);

  constructor(private readonly ns: string) {}

  /** `createIndex`: a no-op when the same index exists; the server's errors when it conflicts or existing documents break it. */
  create(spec: Record<string, 1 | -1>, opts: IndexOptions, docs: D[]): string {
    const name = opts.name ?? Object.entries(spec).map(([k, d]) => `${k}_${d}`).join('_');
    const info: IndexInfo = { v: 2, key: { ...spec }, name, ...(opts.unique ? { unique: true as const } : {}), ...(opts.sparse ? { sparse: true as const } : {}) };
    const same = this.list.find((i) => i.name === name || canon(i.key) === canon(spec));
    if (same) {
      if (canon(same) === canon(info)) return name;
      const conflict = same.name === name ? 'IndexKeySpecsConflict' : 'IndexOptionsConflict';
      throw new MongoServerError({ message: `An existing index has the same ${same.name === name ? 'name' : 'key'} as the requested index (${same.name})`, code: conflict === 'IndexKeySpecsConflict' ? 86 : 85, codeName: conflict });
    }
    if (info.unique) {
      const keys = new Map<string, D>();
      for (const d of docs) {
        for (const k of this.keys(info, d)) {
          if (keys.has(k)) throw this.duplicate(info, d);
          keys.set(k, d);
        }
      }
      this.held.set(name, keys);
    }
    this.list.push(info);
    return name;
  }

  /**
   * Checks that replacing `before` by `after` (either null: an insert or a delete) breaks no
   * unique index, then records it. Throws the server's duplicate-key error and changes nothing.
   */
  write(before: D | null, after: D | null): void {
    const changes: { keys: Map<string, D>; drop: string[]; add: string[] }[] = [];
    for (const info of this.list) {
      const keys = this.held.get(info.name);
      if (!keys) continue;
      const old = before ? this.keys(info, before) : [];
      const now = after ? this.keys(info, after) : [];
      for (const k of now) {
        const holder = keys.get(k);
        if (holder && holder !== before) throw this.duplicate(info, after!);
      }
      changes.push({ keys, drop: old, add: now });
    }
    for (const c of changes) {
      for (const k of c.drop) c.keys.delete(k);
      for (const k of c.add) c.keys.set(k, after!);
    }
  }

  /** The keys of a document under an index (a compound index with an array field is not modelled). */
  private keys(info: IndexInfo, d: D): string[] {
    const fields = Object.keys(info.key);
    const per = fields.map((f) => valuesAt(d, f.split('.')));
    if (info.sparse && per.every((vs) => !vs.length)) return [];
    // Missing: null; an array: one key per element; an empty array: the key `undefined` (not null).
    const expand = (vs: unknown[]) => (!vs.length ? ['null'] : vs.flatMap((v) => (Array.isArray(v) ? (v.length ? v.map(canon) : ['undefined']) : [canon(v)])));
    if (fields.length === 1) return [...new Set(expand(per[0]))];
    if (per.some((vs) => vs.some(Array.isArray))) throw new Error(`stand-in: compound index ${info.name} over an array is not modelled`);
    return [per.map((vs) => canon(vs[0] ?? null)).join('|')];
  }

  private duplicate(info: IndexInfo, d: D): Error {
    const keyValue = Object.fromEntries(Object.keys(info.key).map((f) => [f, valuesAt(d, f.split('.'))[0] ?? null]));
    const shown = Object.entries(keyValue).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
    return new MongoServerError({
      message: `E11000 duplicate key error collection: ${this.ns} index: ${info.name} dup key: { ${shown} }`,
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: info.key,
      keyValue,
    });
  }
}
