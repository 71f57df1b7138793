/**
 * The audit trail: every write to a catalog record leaves one `audits` entry per record
 * ({auditable_type, auditable_id, event, user_id, old_values, new_values, tags, created_at}, as
 * Laravel auditing, which COCONUT uses). Writers go through `tracking(store)`: a store that
 * remembers each record as it was before its first write; `flush()` compares it with the record
 * now and writes one entry per changed record (created, updated or deleted, with the changed
 * fields only). A write that is rolled back never flushes, so it leaves no entry.
 *
 * Not audited: `tokens`, `meta`, the audit entries themselves, and the maintained counters and
 * search data (`molecule_count`, the molecules' kept fields `organism_count`, `annotation_level`,
 * `variants_count`, `has_variants`, `is_parent` (api/catalog/mutate/molecule-fields.ts: they follow
 * from the audited writes), `fingerprints`) and password hashes (a changed password is recorded
 * as `password: "(changed)"`).
 */
import { RESOURCES } from '../schema/resources.ts';
import type { CatalogStore, CollectionName, Doc } from '../store/types.ts';
import type { CatalogUser } from '../schema/types.ts';

type Rec = Record<string, unknown>;

const AUDITED = new Set<CollectionName>(['molecules', 'organisms', 'citations', 'collections', 'users', 'reports']);
/** Fields left out of every entry: counters the server maintains, search data, internal ids. */
const SKIP = new Set(['id', '_id', 'molecule_count', 'organism_count', 'annotation_level', 'variants_count', 'has_variants', 'is_parent', 'fingerprints', 'password_hash']);
/** Embedded records compared field by field (their changed fields only). */
const EMBEDDED = new Set(['properties']);

/** COCONUT's model class of a collection's records (`App\Models\Molecule`). */
export function auditableType(coll: CollectionName): string {
  const r = Object.values(RESOURCES).find((x) => x.collection === coll);
  return `App\\Models\\${(r?.schema.className ?? coll).replace(/Resource$/, '')}`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The changed fields: old and new values (an embedded record: its changed fields). */
export function changes(before: Doc | null, after: Doc | null): { old_values: Rec; new_values: Rec } {
  const old_values: Rec = {};
  const new_values: Rec = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    if (SKIP.has(k) && k !== 'password_hash') continue;
    const a = before?.[k];
    const b = after?.[k];
    if (same(a, b)) continue;
    if (k === 'password_hash') {
      new_values.password = '(changed)';
      continue;
    }
    if (EMBEDDED.has(k) && (a || b) && typeof (a ?? b) === 'object') {
      const sub = changes((a ?? null) as Doc | null, (b ?? null) as Doc | null);
      if (!Object.keys(sub.new_values).length && !Object.keys(sub.old_values).length) continue;
      old_values[k] = a ? sub.old_values : null;
      new_values[k] = b ? sub.new_values : null;
      continue;
    }
    // `undefined` (a field the record did not have) reads as null, as in a SQL row
    old_values[k] = a ?? null;
    new_values[k] = b ?? null;
  }
  if (!before) return { old_values: {}, new_values };
  if (!after) return { old_values, new_values: {} };
  return { old_values, new_values };
}

export interface TrackingStore extends CatalogStore {
  /**
   * Writes one audit entry per record changed since the last flush (or since `tracking()`), as
   * `user` with `tags`, and forgets them. Call it inside the same `exclusive()` as the writes.
   */
  flush(user: Pick<CatalogUser, 'id'> | undefined, tags: string): Promise<number>;
  /** Forgets the records changed so far without auditing them (a rolled-back write). */
  discard(): void;
}

/** A store whose writes are remembered for the audit trail (see the top of this file). */
export function tracking(store: CatalogStore): TrackingStore {
  // `${coll}:${id}` → the record before its first write (null: created here)
  const before = new Map<string, { coll: CollectionName; id: number; doc: Doc | null }>();
  const touch = async (coll: CollectionName, ids: number[]) => {
    if (!AUDITED.has(coll)) return;
    const fresh = ids.filter((id) => !before.has(`${coll}:${id}`));
    if (!fresh.length) return;
    const docs = new Map((await store.findByIds(coll, fresh)).map((d) => [d.id, d]));
    for (const id of fresh) before.set(`${coll}:${id}`, { coll, id, doc: docs.get(id) ?? null });
  };
  const created = (coll: CollectionName, id: number) => {
    if (AUDITED.has(coll) && !before.has(`${coll}:${id}`)) before.set(`${coll}:${id}`, { coll, id, doc: null });
  };
  const own: Rec = {
    async insert(coll: CollectionName, doc: never) {
      const d = await store.insert(coll, doc);
      created(coll, d.id);
      return d;
    },
    async insertMany(coll: CollectionName, docs: never[]) {
      const out = await store.insertMany(coll, docs);
      for (const d of out) created(coll, d.id);
      return out;
    },
    async upsert(coll: CollectionName, field: string, value: unknown, set: Rec) {
      const cur = AUDITED.has(coll) ? await store.findOne(coll, { [field]: value }) : null;
      if (cur) await touch(coll, [cur.id]);
      const res = await store.upsert(coll, field, value, set);
      if (res.created) created(coll, res.doc.id);
      return res;
    },
    async update(coll: CollectionName, id: number, set: Rec, unset?: string[]) {
      await touch(coll, [id]);
      return store.update(coll, id, set, unset);
    },
    async replace(coll: CollectionName, doc: Doc) {
      await touch(coll, [doc.id]);
      return store.replace(coll, doc);
    },
    async remove(coll: CollectionName, ids: number[]) {
      await touch(coll, ids);
      return store.remove(coll, ids);
    },
    async link(id: number, field: never, ids: number[]) {
      await touch('molecules', [id]);
      return store.link(id, field, ids);
    },
    async unlink(id: number, field: never, ids: number[]) {
      await touch('molecules', [id]);
      return store.unlink(id, field, ids);
    },
    async setProperties(id: number, props: Rec | null) {
      await touch('molecules', [id]);
      return store.setProperties(id, props);
    },
    discard() {
      before.clear();
    },
    async flush(user: { id: number | null } | undefined, tags: string) {
      const entries: Rec[] = [];
      const now = new Date().toISOString();
      const byColl = new Map<CollectionName, number[]>();
      for (const b of before.values()) byColl.set(b.coll, [...(byColl.get(b.coll) ?? []), b.id]);
      const after = new Map<string, Doc>();
      for (const [coll, ids] of byColl) for (const d of await store.findByIds(coll, ids)) after.set(`${coll}:${d.id}`, d);
      for (const [key, b] of before) {
        const a = after.get(key) ?? null;
        if (!a && !b.doc) continue; // created and removed within the write
        const { old_values, new_values } = changes(b.doc, a);
        if (b.doc && a && !Object.keys(new_values).length && !Object.keys(old_values).length) continue;
        entries.push({
          auditable_type: auditableType(b.coll),
          auditable_id: b.id,
          event: !b.doc ? 'created' : !a ? 'deleted' : 'updated',
          user_id: user?.id ?? null,
          old_values,
          new_values,
          tags,
          created_at: now,
        });
      }
      before.clear();
      if (entries.length) await store.insertMany('audits', entries as never[]);
      return entries.length;
    },
  };
  // everything else is the store's own (bound to it: its state stays in one object)
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && Object.hasOwn(own, prop)) return own[prop];
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as TrackingStore;
}
