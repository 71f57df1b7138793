/**
 * The api process's composition root: every long-lived resource is built here, once, from the
 * configuration, and closed here in reverse order, each step even when one before it failed
 * (shared/lifecycle.ts): the metrics registry, the Redis connections (shared/redis.ts profiles),
 * the job runner (inline: a Piscina pool in this process; bullmq: queues in Redis), the catalog
 * store (embedded files or MongoDB), the structure search (api/catalog/search/structure/module.ts), the
 * demo import and the OPSIN JVM. Entries (api/server.ts, api/mcp/stdio.ts) pass their logger.
 */
import type { Redis } from 'ioredis';
import { join } from 'node:path';
import { threadConfig, type Config } from '../shared/config.ts';
import { openStore } from './catalog/store/open.ts';
import { createStructureSearch, observeMassWrites, type StructureSearch, type StructureSearchModule } from './catalog/search/index.ts';
import type { CatalogStore } from './catalog/store/types.ts';
import type { DeriveInput, DerivedMolecule } from '../shared/chem/catalog/ports.ts';
import type { SeedHandle } from './catalog/import/demo.ts';
import { ImportJobs } from './catalog/import/jobs.ts';
import { derivationsOn } from './catalog/import/derive-cache.ts';
import { createBullRunner } from '../shared/jobs/bullmq.ts';
import type { RunnerTimeouts } from '../shared/jobs/executor.ts';
import { createInlineRunner } from '../shared/jobs/inline.ts';
import type { JobRunner } from '../shared/jobs/types.ts';
import { Resources } from '../shared/lifecycle.ts';
import { silentLogger, type Logger } from '../shared/log.ts';
import { createMetrics, type Metrics } from '../shared/metrics.ts';
import { connectSoft, redisClient, type RedisProfile } from '../shared/redis.ts';
import { createPool, type ChemPool } from '../shared/threads/pool.ts';
import { Toolkits } from '../shared/toolkits/index.ts';
import { closeSharedOpsin, opsinHealth } from './names/service.ts';

export interface Services {
  config: Config;
  log: Logger;
  metrics: Metrics;
  runner: JobRunner;
  store: CatalogStore;
  /** The inline runner's pool (undefined in bullmq mode: the api runs no chemistry then). */
  pool?: ChemPool;
  /** The CDK and Open Babel sidecars (they serve the inline pool; in bullmq mode the workers own theirs). */
  toolkits: Toolkits;
  /** A Redis connection of the given profile (distributed mode; undefined without REDIS_URL), built once per name and closed with the rest. */
  redis(profile: RedisProfile, name: string): Redis | undefined;
  /** Structure derivation of catalog molecules, as a job on the runner (worker task `derive_molecule`). */
  derive: (input: DeriveInput) => Promise<DerivedMolecule>;
  /** Catalog imports as jobs (`POST /api/imports`, the MCP tool, api/catalog/import/jobs.ts). */
  imports: ImportJobs;
  /** The background demo import, when the server started one. */
  seed?: SeedHandle;
  /** Catalog structure search (exact, substructure, similarity). */
  structure: StructureSearch;
  /** The structure-search index: built (inline) or published (distributed) by `start()`. */
  searchIndex: Pick<StructureSearchModule, 'start' | 'status'>;
  /** What /health reports beside the version and modes: each component's state. */
  health(): Record<string, unknown>;
  /** Closes everything (running tasks get `graceMs`); resolves with the names of the steps that failed. */
  close(graceMs?: number): Promise<string[]>;
}

export function timeoutsOf(config: Config): RunnerTimeouts {
  return {
    quickMs: config.TASK_TIMEOUT_MS,
    longMs: config.LONG_TASK_TIMEOUT_MS,
    waitMs: config.JOB_TIMEOUT_MS,
    resultTtlSeconds: config.JOB_RESULT_TTL,
  };
}

export async function createServices(config: Config, opts: { store?: CatalogStore; log?: Logger } = {}): Promise<Services> {
  const log = opts.log ?? silentLogger;
  const resources = new Resources(log);
  let graceMs = config.SHUTDOWN_GRACE_MS;
  try {
    const metrics = createMetrics('api', config.RELEASE_VERSION);
    const timeouts = timeoutsOf(config);

    const connections = new Map<string, Redis>();
    const redis = (profile: RedisProfile, name: string): Redis | undefined => {
      if (!config.REDIS_URL) return undefined;
      const key = `${profile}:${name}`;
      let r = connections.get(key);
      if (!r) {
        r = resources.add(`redis ${name}`, redisClient(config.REDIS_URL, profile, name, log), (c) => c.disconnect());
        connections.set(key, r);
      }
      return r;
    };

    // Opened first, closed last: whatever still runs at shutdown may write to it until then.
    const opened = opts.store ?? (await openStore({ mongoUrl: config.MONGO_URL, dataDir: config.DATA_DIR }));
    resources.add('catalog store', opened, (s) => s.close());
    // Its molecule writes kept in the dereplication mass index (api/catalog/search/mass/mass-index.ts).
    const raw = observeMassWrites(opened);

    let pool: ChemPool | undefined;
    let runner: JobRunner;
    // With REDIS_URL the workers run the toolkits; this one only says what this machine has installed.
    const toolkits = new Toolkits(config);
    if (config.REDIS_URL) {
      runner = await createBullRunner({
        redisUrl: config.REDIS_URL,
        prefix: config.QUEUE_PREFIX,
        attempts: config.JOB_ATTEMPTS,
        timeouts,
        observer: metrics.jobObserver,
        log: (msg, extra) => log.warn(extra, msg),
        logger: log,
      });
      resources.add('job runner', runner, (r) => r.close());
    } else {
      const p = createPool(config.WORKERS, threadConfig(config), log);
      pool = resources.add('chemistry pool', p, async (pl) => {
        // Running tasks get the grace period; then their threads are stopped.
        const late = await Promise.race([pl.close().then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
        if (late) await pl.destroy();
      });
      metrics.watchPool(() => p.utilization, () => p.threads.length, () => p.wasmMemory());
      // CDK and Open Babel sidecars beside the threads (toolkit=cdk|openbabel), closed after the runner.
      resources.add('toolkits', toolkits, (tk) => tk.close()).attach(p);
      runner = createInlineRunner({ execute: (task, args, hooks) => p.run(task, args, hooks), timeouts, observer: metrics.jobObserver, load: () => p.load() });
      resources.add('job runner', runner, (r) => r.close());
    }
    metrics.watchQueues(() => runner.depth());
    resources.onClose('OPSIN', closeSharedOpsin);

    const publisherRedis = redis('commands', 'search-publisher');
    if (publisherRedis) await connectSoft(publisherRedis);
    const structure = createStructureSearch({
      runner,
      store: raw,
      pool,
      redis: publisherRedis,
      prefix: config.QUEUE_PREFIX,
      log,
      // Distributed: the index split by molecule id over SEARCH_SHARDS groups of workers (docs/search.md).
      shards: config.SEARCH_SHARDS,
      // Inline: the index's rows kept beside the store, so that a restart rebuilds only what changed.
      ...(pool ? { snapshot: join(config.DATA_DIR, 'search-index', 'rows.bin') } : {}),
    });
    resources.add('structure search', structure, (s) => s.close());
    const derivations = derivationsOn(runner);
    const imports = new ImportJobs({
      dir: join(config.DATA_DIR, 'imports'),
      store: structure.store,
      ...derivations,
      sampleEvery: config.IMPORT_SAMPLE_EVERY,
      chunk: config.IMPORT_CHUNK,
      allowedDir: config.IMPORT_DIR,
      uploadLimit: config.IMPORT_UPLOAD_LIMIT,
      log,
      sweep: true,
    });
    const services: Services = {
      config,
      log,
      metrics,
      runner,
      store: structure.store,
      pool,
      toolkits,
      redis,
      structure: structure.search,
      searchIndex: structure,
      derive: derivations.derive,
      imports,
      health: () => ({
        ...(services.seed ? { demo_import: services.seed.status() } : {}),
        structure_search: structure.status(),
        imports: imports.status(),
        opsin: opsinHealth(config),
        toolkits: toolkits.health(),
      }),
      close(grace = config.SHUTDOWN_GRACE_MS) {
        graceMs = grace;
        return resources.closeAll();
      },
    };
    // Built last, closed first: imports stop before the store and the runner go (a running
    // import is left to resume at the next start).
    resources.onClose('imports', () => imports.close());
    resources.onClose('demo import', () => services.seed?.stop());
    return services;
  } catch (e) {
    await resources.closeAll();
    throw e;
  }
}
