/**
 * Catalog structure search, api side: one factory that builds it, starts it and closes it. The
 * engine (shared/structure-search/) runs wherever chemistry threads are: in the inline mode on the
 * api's own pool, fed directly by the catalog's writes; in the distributed mode in every worker
 * process (shared/structure-search/worker.ts), fed through Redis by this process's publisher.
 *
 * `start()` backfills fingerprints of molecules stored without current ones, then builds the index
 * (inline) or publishes the molecules (distributed, and republishes them when Redis lost them);
 * molecules written by another process on the same DATA_DIR trigger a rebuild. `status()` is what
 * /health shows; `close()` stops the timers and any backfill in progress.
 *
 * With `shards` > 1 (SEARCH_SHARDS, distributed mode only) each worker holds one shard of the
 * index, and a search goes to one worker of every shard (shards.ts); /health shows each shard.
 */
import type { Redis } from 'ioredis';
import type { SearchFeed } from '../../../../shared/chem/catalog/ports.ts';
import type { JobRunner } from '../../../../shared/jobs/types.ts';
import type { Logger } from '../../../../shared/log.ts';
import { SearchService } from '../../../../shared/structure-search/service.ts';
import { RedisSearchPublisher } from '../../../../shared/structure-search/redis-feed.ts';
import type { ChemPool } from '../../../../shared/threads/pool.ts';
import type { CatalogStore } from '../../store/types.ts';
import { backfillFingerprints, observeMolecules, storePages, storeRows, type BackfillStatus } from './feed.ts';
import { ShardedSearch } from './shards.ts';
import { StructureSearch } from './structure.ts';

/** How long after the last foreign write the index is rebuilt. */
const EXTERNAL_QUIET_MS = 1_000;
/** How often the distributed mode checks that Redis still holds the published molecules. */
const ENSURE_EVERY_MS = 10_000;

export interface StructureSearchModule {
  /** The catalog store, its molecule writes told to the index. */
  store: CatalogStore;
  /** Exact, substructure and similarity search (POST /api/search, the Lomkit operators, exports). */
  search: StructureSearch;
  start(): Promise<void>;
  status(): Record<string, unknown>;
  /** Stops the timers and any backfill; resolves when a snapshot being saved is written. */
  close(): Promise<void>;
}

export interface StructureSearchDeps {
  runner: JobRunner;
  /** The catalog store as opened (writes through it are not observed). */
  store: CatalogStore;
  /** Inline mode: the api's pool, which then holds the index. */
  pool?: ChemPool;
  /** Distributed mode: a `commands` Redis connection and the key prefix. */
  redis?: Redis;
  /** Inline mode: the file the index's rows are saved to after each full build and read back by the next (shared/structure-search/snapshot.ts). */
  snapshot?: string;
  prefix: string;
  log: Logger;
  /** Distributed mode: the shards of the index (SEARCH_SHARDS; default 1, every worker holds it all). The inline mode's one index ignores it. */
  shards?: number;
}

export function createStructureSearch(deps: StructureSearchDeps): StructureSearchModule {
  const { runner, store: raw, log } = deps;
  const logFailure = (err: unknown) => log.error({ err }, 'structure search index');
  let feed: SearchFeed;
  let index: SearchService | undefined;
  let publisher: RedisSearchPublisher | undefined;
  let sharded: ShardedSearch | undefined;
  if (deps.pool) {
    const svc = (index = new SearchService(deps.pool, { snapshot: deps.snapshot, complete: storeRows(raw) }));
    feed = {
      // Not awaited: the index applies writes in order, and a search waits for those before it.
      put: async (rows) => void svc.apply(rows).catch(logFailure),
      remove: async (ids) => void svc.apply([], ids).catch(logFailure),
      rebuild: (pages, expected) => svc.rebuild(pages, expected),
    };
  } else if (deps.redis) {
    feed = publisher = new RedisSearchPublisher(deps.redis, deps.prefix);
    if ((deps.shards ?? 1) > 1) sharded = new ShardedSearch(runner, deps.redis, deps.prefix, deps.shards!);
  } else {
    throw new Error('structure search needs the api pool (inline) or a Redis connection (distributed)');
  }
  const store = observeMolecules(raw, () => feed);
  const backfill: BackfillStatus = { state: 'idle', missing: 0, done: 0, unreadable: 0 };
  let published: { state: string; error?: string } = { state: 'idle' };
  const stopping = new AbortController();
  let ensureTimer: NodeJS.Timeout | undefined;
  let rebuildTimer: NodeJS.Timeout | undefined;

  raw.onExternalChange?.((coll) => {
    if (coll !== 'molecules' || stopping.signal.aborted) return;
    clearTimeout(rebuildTimer);
    rebuildTimer = setTimeout(() => {
      void raw
        .count('molecules', {})
        .then((n) => feed.rebuild(storePages(raw, !index), n))
        .catch(logFailure);
    }, EXTERNAL_QUIET_MS);
    rebuildTimer.unref();
  });

  async function publish(): Promise<void> {
    published = { state: 'publishing' };
    try {
      await publisher!.ensure(storePages(raw));
      published = { state: 'published' };
    } catch (e) {
      published = { state: 'failed', error: (e as Error)?.message };
    }
    // Redis may lose the published molecules (a restart without persistence): put them back.
    ensureTimer ??= setInterval(() => {
      publisher!.ensure(storePages(raw)).then(
        (did) => did && (published = { state: 'published' }),
        () => {},
      );
    }, ENSURE_EVERY_MS);
    ensureTimer.unref();
  }

  return {
    store,
    search: new StructureSearch(runner, store, sharded && ((args) => sharded.search(args))),
    async start() {
      await backfillFingerprints(raw, runner, backfill, stopping.signal);
      if (stopping.signal.aborted) return;
      if (index) return index.rebuild(storePages(raw, false), await raw.count('molecules', {}));
      return publish();
    },
    status() {
      return { backfill: { ...backfill }, index: index ? index.health() : sharded ? { ...published, ...sharded.status() } : published };
    },
    async close() {
      stopping.abort();
      clearInterval(ensureTimer);
      clearTimeout(rebuildTimer);
      await index?.saving;
    },
  };
}
