/**
 * Keeping the structure-search index in step with the catalog (api side). Every molecule write
 * that goes through the store (mutate, actions, imports, demo seeding, rollbacks) is seen by a
 * thin wrapper around the store and passed to the feed: in the inline mode the api's own index
 * (shared/structure-search/service.ts), in the distributed mode Redis, from which every worker process
 * keeps its copy (shared/structure-search/redis-feed.ts). At start, molecules stored without current
 * fingerprints get them (the backfill), then the index is built from the store.
 */
import type { JobRunner } from '../../../../shared/jobs/types.ts';
import { FP_VERSION } from '../../../../shared/chem/catalog/fingerprints.ts';
import type { RowInput, SearchFeed } from '../../../../shared/chem/catalog/ports.ts';
import type { CatalogStore, CollectionName, Doc } from '../../store/types.ts';
import { idPages } from '../../store/id-pages.ts';

const rowOf = (d: Doc): RowInput => ({ id: d.id, smiles: d.canonical_smiles as string, fingerprints: d.fingerprints });

/**
 * The store, with its molecule writes told to `feed` after they succeed (awaited: a write is
 * answered only once the index will see it). Reads pass through untouched.
 */
export function observeMolecules(store: CatalogStore, feed: () => SearchFeed | undefined): CatalogStore {
  const put = async (docs: (Doc | null | undefined)[]) => {
    const rows = docs.filter((d): d is Doc => !!d).map(rowOf);
    if (rows.length) await feed()?.put(rows);
  };
  const wrapped: Partial<CatalogStore> = {
    async insert(coll: CollectionName, doc: Record<string, unknown>) {
      const out = await store.insert(coll, doc);
      if (coll === 'molecules') await put([out]);
      return out;
    },
    async insertMany(coll: CollectionName, docs: Record<string, unknown>[]) {
      const out = await store.insertMany(coll, docs);
      if (coll === 'molecules') await put(out);
      return out;
    },
    async upsert(coll: CollectionName, field: string, value: unknown, set: Record<string, unknown>) {
      const out = await store.upsert(coll, field, value, set);
      if (coll === 'molecules' && (out.created || 'canonical_smiles' in set || 'fingerprints' in set)) await put([out.doc]);
      return out;
    },
    async update(coll: CollectionName, id: number, set: Record<string, unknown>, unset?: string[]) {
      const out = await store.update(coll, id, set, unset);
      const touches = 'canonical_smiles' in set || 'fingerprints' in set || !!unset?.some((f) => f === 'canonical_smiles' || f === 'fingerprints');
      if (coll === 'molecules' && touches) await put([out]);
      return out;
    },
    async replace(coll: CollectionName, doc: Doc) {
      await store.replace(coll, doc);
      if (coll === 'molecules') await put([doc]);
    },
    async remove(coll: CollectionName, ids: number[]) {
      const n = await store.remove(coll, ids);
      if (coll === 'molecules' && ids.length) await feed()?.remove(ids);
      return n;
    },
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in wrapped) return wrapped[key as keyof CatalogStore];
      const v = Reflect.get(target, key, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const PAGE = 2000;

/**
 * The store's molecules as index rows, a page at a time in id order (id windows: store/id-pages.ts).
 * `full` false: each row's fingerprints only as their version (`{v}`), for the inline index's
 * build, which reads whole only the rows its snapshot lacks (`storeRows`): the embedded store
 * keeps fingerprints on disk, and reading them back for 700,000 molecules doubled a restart's
 * index time (7.6 → 14 s).
 */
export function storePages(store: CatalogStore, full = true): () => AsyncIterable<RowInput[]> {
  const fields = ['canonical_smiles', full ? 'fingerprints' : 'fingerprints.v'];
  return async function* () {
    for await (const docs of idPages(store, 'molecules', {}, PAGE, fields)) yield docs.map(rowOf);
  };
}

/** The whole index rows of these molecules, those the store still has. */
export function storeRows(store: CatalogStore): (ids: number[]) => Promise<RowInput[]> {
  return async (ids) => (await store.findByIds('molecules', ids, ['canonical_smiles', 'fingerprints'])).map(rowOf);
}

export interface BackfillStatus {
  state: 'idle' | 'running' | 'done' | 'failed';
  missing: number;
  done: number;
  unreadable: number;
  error?: string;
}

/**
 * Computes and stores the search fingerprints of molecules that lack current ones, on the
 * chemistry threads (task `catalog_fingerprints`), writing through `raw` (the unobserved store:
 * the index is built afterwards anyway).
 */
export async function backfillFingerprints(raw: CatalogStore, runner: JobRunner, status: BackfillStatus, signal?: AbortSignal): Promise<void> {
  const stale = { $or: [{ fingerprints: null }, { fingerprints: { $exists: false } }, { 'fingerprints.v': { $ne: FP_VERSION } }] };
  status.state = 'running';
  status.missing = await raw.count('molecules', stale);
  try {
    for await (const docs of idPages(raw, 'molecules', stale, 200, ['canonical_smiles'])) {
      if (signal?.aborted) break;
      const rows = docs.filter((d) => typeof d.canonical_smiles === 'string').map((d) => ({ id: d.id, smiles: d.canonical_smiles as string }));
      const r = await runner.runTask('catalog_backfill', 'catalog_fingerprints', { rows });
      for (const it of r.items) await raw.update('molecules', it.id, { fingerprints: it.fingerprints });
      status.done += docs.length;
      status.unreadable += r.failed.length + (docs.length - rows.length);
    }
    status.state = 'done';
  } catch (e) {
    status.state = 'failed';
    status.error = (e as Error)?.message ?? String(e);
    throw e;
  }
}
