/**
 * The long-lived services the api process needs, created from the configuration: the metrics
 * registry, the job runner (inline: a Piscina pool in this process; bullmq: queues in Redis) and
 * the catalog store (embedded nedb files, or MongoDB). Closed in reverse order.
 */
import type { Config } from '../shared/config.ts';
import { openStore } from '../shared/catalog/store/open.ts';
import type { CatalogStore } from '../shared/catalog/store/types.ts';
import type { DeriveInput, DerivedMolecule } from '../shared/catalog/derived.ts';
import type { SeedHandle } from '../shared/catalog/import/demo.ts';
import { createBullRunner } from '../shared/jobs/bullmq.ts';
import type { RunnerTimeouts } from '../shared/jobs/executor.ts';
import { createInlineRunner } from '../shared/jobs/inline.ts';
import type { JobRunner } from '../shared/jobs/types.ts';
import { createMetrics, type Metrics } from '../shared/metrics.ts';
import { createPool, type ChemPool } from '../workers/pool.ts';

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
    });
  } else {
    const p = createPool(config.WORKERS);
    pool = p;
    metrics.watchPool(() => p.utilization, () => p.threads.length);
    runner = createInlineRunner({ execute: (task, args, hooks) => p.run(task, args, hooks), timeouts, observer: metrics.jobObserver, load: () => p.load() });
  }
  metrics.watchQueues(() => runner.depth());
  const store = opts.store ?? (await openStore({ mongoUrl: config.MONGO_URL, dataDir: config.DATA_DIR }));
  const services: Services = {
    config,
    metrics,
    runner,
    store,
    pool,
    derive: async (input) => (await runner.run('derive_molecule', 'derive_molecule', input)) as DerivedMolecule,
    async close(graceMs = config.SHUTDOWN_GRACE_MS) {
      await services.seed?.stop();
      await runner.close();
      if (pool) {
        // Running tasks get the grace period; then their threads are stopped.
        const closing = pool.close();
        const late = await Promise.race([closing.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
        if (late) await pool.destroy();
      }
      await store.close();
    },
  };
  return services;
}
