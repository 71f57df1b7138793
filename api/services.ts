/**
 * The long-lived services the api process needs, created from the configuration: the metrics
 * registry, the job runner (inline: a Piscina pool in this process; bullmq: queues in Redis) and
 * the catalog store (embedded nedb files, or MongoDB). Closed in reverse order.
 */
import { threadConfig, type Config } from '../shared/config.ts';
import { openStore } from './catalog/store/open.ts';
import type { CatalogStore } from './catalog/store/types.ts';
import type { DeriveInput, DerivedMolecule, SearchFeed } from '../shared/chem/catalog/ports.ts';
import type { SeedHandle } from './catalog/import/demo.ts';
import { createBullRunner } from '../shared/jobs/bullmq.ts';
import type { RunnerTimeouts } from '../shared/jobs/executor.ts';
import { createInlineRunner } from '../shared/jobs/inline.ts';
import type { JobRunner } from '../shared/jobs/types.ts';
import { createMetrics, type Metrics } from '../shared/metrics.ts';
import { createPool, type ChemPool } from '../shared/threads/pool.ts';
import { Redis } from 'ioredis';
import { StructureSearch } from './catalog/structure/structure.ts';
import { backfillFingerprints, observeMolecules, storePages, type BackfillStatus } from './catalog/structure/feed.ts';
import { SearchService } from '../shared/structure-search/service.ts';
import { RedisSearchPublisher } from '../shared/structure-search/redis-feed.ts';

export interface Services {
  config: Config;
  metrics: Metrics;
  runner: JobRunner;
  store: CatalogStore;
  /** The inline runner's pool (undefined in bullmq mode: the api runs no chemistry then). */
  pool?: ChemPool;
  /** Structure derivation of catalog molecules, as a job on the runner (worker task `derive_molecule`). */
  derive: (input: DeriveInput) => Promise<DerivedMolecule>;
  /** The background demo import, when the server started one. */
  seed?: SeedHandle;
  /** Catalog structure search (exact, substructure, similarity). */
  structure: StructureSearch;
  /** The structure-search index: built (inline) or published (distributed) by `start()`. */
  searchIndex: {
    /** Backfills missing fingerprints, then builds or publishes the index; resolves when done. */
    start(): Promise<void>;
    status(): Record<string, unknown>;
  };
  close(graceMs?: number): Promise<void>;
}

export function timeoutsOf(config: Config): RunnerTimeouts {
  return {
    quickMs: config.TASK_TIMEOUT_MS,
    longMs: config.LONG_TASK_TIMEOUT_MS,
    waitMs: config.JOB_TIMEOUT_MS,
    resultTtlSeconds: config.JOB_RESULT_TTL,
  };
}

export async function createServices(config: Config, opts: { store?: CatalogStore } = {}): Promise<Services> {
  const metrics = createMetrics('api', config.RELEASE_VERSION);
  const timeouts = timeoutsOf(config);
  let pool: ChemPool | undefined;
  let runner: JobRunner;
  if (config.REDIS_URL) {
    runner = await createBullRunner({
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      attempts: config.JOB_ATTEMPTS,
      timeouts,
      observer: metrics.jobObserver,
      log: (msg, extra) => console.error(JSON.stringify({ level: 'warn', time: new Date().toISOString(), msg, ...extra })),
    });
  } else {
    const p = createPool(config.WORKERS, threadConfig(config));
    pool = p;
    metrics.watchPool(() => p.utilization, () => p.threads.length, () => p.wasmMemory());
    runner = createInlineRunner({ execute: (task, args, hooks) => p.run(task, args, hooks), timeouts, observer: metrics.jobObserver, load: () => p.load() });
  }
  metrics.watchQueues(() => runner.depth());
  const raw = opts.store ?? (await openStore({ mongoUrl: config.MONGO_URL, dataDir: config.DATA_DIR }));

  // Structure search: the inline mode keeps the index on its own threads; the distributed mode
  // publishes the molecules to Redis, from which each worker process keeps its copy.
  let feed: SearchFeed;
  let index: SearchService | undefined;
  let publisher: RedisSearchPublisher | undefined;
  let redis: Redis | undefined;
  if (pool) {
    const svc = new SearchService(pool);
    index = svc;
    const logFailure = (e: unknown) => console.error(`structure search index: ${(e as Error)?.message ?? e}`);
    feed = {
      // Not awaited: the index applies writes in order, and a search waits for those before it.
      put: async (rows) => void svc.apply(rows).catch(logFailure),
      remove: async (ids) => void svc.apply([], ids).catch(logFailure),
      rebuild: (pages, expected) => svc.rebuild(pages, expected),
    };
  } else {
    redis = new Redis(config.REDIS_URL!, { maxRetriesPerRequest: 2, lazyConnect: false });
    redis.on('error', () => {});
    publisher = new RedisSearchPublisher(redis, config.QUEUE_PREFIX);
    feed = publisher;
  }
  const store = observeMolecules(raw, () => feed);
  const backfill: BackfillStatus = { state: 'idle', missing: 0, done: 0, unreadable: 0 };
  let published: { state: string; error?: string } = { state: 'idle' };
  let ensureTimer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();
  // Molecules written by another process (the import CLI on the same DATA_DIR): rebuild, once
  // the burst of changes is over.
  let rebuildTimer: NodeJS.Timeout | undefined;
  raw.onExternalChange?.((coll) => {
    if (coll !== 'molecules' || stopping.signal.aborted) return;
    clearTimeout(rebuildTimer);
    rebuildTimer = setTimeout(() => {
      void raw.count('molecules', {}).then((n) => feed.rebuild(storePages(raw), n)).catch((e: unknown) => console.error(`structure search index: ${(e as Error)?.message ?? e}`));
    }, 1_000);
    rebuildTimer.unref();
  });
  const searchIndex: Services['searchIndex'] = {
    async start() {
      await backfillFingerprints(raw, runner, backfill, stopping.signal);
      if (stopping.signal.aborted) return;
      const expected = await raw.count('molecules', {});
      if (index) return index.rebuild(storePages(raw), expected);
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
      }, 10_000);
      ensureTimer.unref();
    },
    status() {
      return { backfill: { ...backfill }, index: index ? index.health() : published };
    },
  };
  const services: Services = {
    config,
    metrics,
    runner,
    store,
    pool,
    structure: new StructureSearch(runner, store),
    searchIndex,
    derive: async (input) => (await runner.run('derive_molecule', 'derive_molecule', input)) as DerivedMolecule,
    async close(graceMs = config.SHUTDOWN_GRACE_MS) {
      stopping.abort();
      if (ensureTimer) clearInterval(ensureTimer);
      clearTimeout(rebuildTimer);
      await services.seed?.stop();
      await runner.close();
      if (pool) {
        // Running tasks get the grace period; then their threads are stopped.
        const closing = pool.close();
        const late = await Promise.race([closing.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
        if (late) await pool.destroy();
      }
      redis?.disconnect();
      await raw.close();
    },
  };
  return services;
}
