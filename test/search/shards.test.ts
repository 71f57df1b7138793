/**
 * The structure-search index in two shards (SEARCH_SHARDS=2, distributed mode) answers exactly as
 * one index does. The demo catalog is imported through a bullmq api; two in-process workers hold
 * shard 0 and shard 1 of 2 (their own pools, consumers and followers of the Redis feed, as
 * workers/main.ts builds them); the reference is the same engine holding every molecule (a
 * SearchService on a pool of its own, built from the store). Every kind of call the api makes
 * (page with and without a count, at several offsets; COCONUT's ranked order; every hit;
 * similarity; the raw `catalog_search` with excluded ids and limit 0) must give the same ids, in
 * the same order, with the same scores, totals and `more`. Also: /health's shard layout, a write
 * followed by the shard that holds it, the 503 naming a shard without a worker, and a worker
 * refusing a search meant for another layout.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createServices } from '../../api/services.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { createPool, type ChemPool } from '../../shared/threads/pool.ts';
import { startConsumers, type Consumers } from '../../workers/consumer.ts';
import { createWorkerSearch, type WorkerSearch } from '../../shared/structure-search/worker.ts';
import { SearchService } from '../../shared/structure-search/service.ts';
import { readShards, shardQueue } from '../../shared/structure-search/shards.ts';
import type { SearchArgs } from '../../shared/structure-search/contract.ts';
import { createInlineRunner } from '../../shared/jobs/inline.ts';
import { silentLogger } from '../../shared/log.ts';
import { createStructureSearch } from '../../api/catalog/search/structure/module.ts';
import { storePages } from '../../api/catalog/search/structure/feed.ts';
import { StructureSearch, type StructureQuery } from '../../api/catalog/search/structure/structure.ts';
import { ShardedSearch } from '../../api/catalog/search/structure/shards.ts';
import { AppError } from '../../shared/errors.ts';
import { importDemoOnce } from '../helpers/demo.ts';
import { testPrefix, testRedis } from '../helpers/redis.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

interface Ref {
  molecule_count: number;
  substructure: { name: string; query: string; query_type: 'smiles' | 'smarts'; use_chirality: boolean }[];
  similarity: { name: string; query: string }[];
}
const ref = JSON.parse(readFileSync(new URL('../fixtures/search_reference.json', import.meta.url), 'utf8')) as Ref;

const redis = await testRedis();
if (!redis) skipAll(t, NO_REDIS);
else {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-shards-'));
  const prefix = testPrefix();
  const config = loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false', WORKERS: '1', LOG_LEVEL: 'silent', QUEUE_PREFIX: prefix, JOB_LOCK_MS: '5000', REDIS_URL: redis.url });
  const services = await createServices(config);
  const connections: Redis[] = [];
  const connect = () => {
    const r = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    connections.push(r);
    return r;
  };

  /** A worker process holding one shard of `of`, as workers/main.ts builds it. */
  interface ShardWorker {
    pool: ChemPool;
    consumers: Consumers;
    search: WorkerSearch;
  }
  const startWorker = async (index: number, of: number): Promise<ShardWorker> => {
    const pool = createPool(1, threadConfig(config));
    const shard = { index, of };
    const search = createWorkerSearch({ pool, redis: connect(), prefix, log: silentLogger, shard });
    const consumers = await startConsumers({ redisUrl: redis.url, prefix, pool, concurrency: 1, lockMs: config.JOB_LOCK_MS, queues: [shardQueue(shard)] });
    return { pool, consumers, search };
  };
  const workers = [await startWorker(0, 2), await startWorker(1, 2)];
  const refPool = createPool(1, threadConfig(config));

  t.teardown(async () => {
    for (const w of workers) {
      await w.search.close();
      await w.consumers.close(0);
      await w.pool.destroy();
    }
    await refPool.destroy();
    await services.close(0);
    for (const c of connections) c.disconnect();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  await importDemoOnce(services);
  await services.searchIndex.start();

  // The api side with SEARCH_SHARDS=2 (what api/services.ts builds from the configuration).
  const module2 = createStructureSearch({ runner: services.runner, store: services.store, redis: connect(), prefix, log: silentLogger, shards: 2 });
  t.teardown(() => module2.close());
  const sharded = module2.search;
  // The raw `catalog_search` as the sharded api sends it and merges it.
  const raw = new ShardedSearch(services.runner, connect(), prefix, 2);

  // The reference: one index of every molecule, the same engine.
  const refService = new SearchService(refPool);
  await refService.rebuild(storePages(services.store), await services.store.count('molecules', {}));
  const refRunner = createInlineRunner({
    execute: (task, args, hooks) => refPool.run(task, args, hooks),
    timeouts: { quickMs: 60_000, longMs: 600_000, waitMs: 60_000, resultTtlSeconds: 60 },
  });
  t.teardown(() => refRunner.close());
  const whole = new StructureSearch(refRunner, services.store);

  // Both shards hold their molecules before the comparisons (a worker says so every few seconds).
  const layout = connect();
  for (let i = 0; i < 200; i++) {
    const shards = await readShards(layout, prefix, 2);
    if (shards.every((s) => s.state === 'ready')) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  t.test('each worker holds its shard; /health shows both', async (t) => {
    const statuses = workers.map((w) => w.search.status());
    t.same(statuses.map((s) => s.shard), [{ index: 0, of: 2 }, { index: 1, of: 2 }]);
    t.ok(statuses.every((s) => s.state === 'ready'), 'both indexes ready');
    t.ok(statuses.every((s) => s.molecules > 0), 'neither shard is empty');
    t.equal(statuses[0].molecules + statuses[1].molecules, refService.health().molecules, 'together they hold every molecule of the whole index');
    t.ok(statuses.every((s) => s.bytes < refService.health().bytes), 'each holds less than the whole index');
    type Health = { index: { of: number; shards: { shard: number; workers: number; state: string; molecules: number }[] } };
    module2.status();
    await new Promise((r) => setTimeout(r, 1_100)); // /health shows the layout read last, at most once a second
    const again = module2.status() as Health;
    t.equal(again.index.of, 2);
    t.same(
      again.index.shards.map((s) => ({ shard: s.shard, workers: s.workers, state: s.state, molecules: s.molecules })),
      statuses.map((s, shard) => ({ shard, workers: 1, state: 'ready', molecules: s.molecules })),
    );
  });

  t.test('pages, ranked pages and every hit equal the whole index', async (t) => {
    const same = async (what: string, a: Promise<unknown>, b: Promise<unknown>) => t.same(await a, await b, what);
    for (const q of ref.substructure) {
      const query: StructureQuery = { type: 'substructure', query: q.query, query_type: q.query_type, use_chirality: q.use_chirality };
      for (const [offset, limit, count] of [[0, 10, false], [10, 10, false], [0, 10, true], [23, 7, true], [0, 1, false]] as const) {
        await same(`${q.name}: page ${offset}+${limit}${count ? ' counted' : ''}`, sharded.page(query, offset, limit, count), whole.page(query, offset, limit, count));
      }
      await same(`${q.name}: every hit`, sharded.allIds(query), whole.allIds(query));
      const sub = { ...query, type: 'substructure' as const };
      for (const [offset, limit] of [[0, 10], [7, 20], [0, 0]] as const) {
        await same(`${q.name}: ranked ${offset}+${limit}`, sharded.ranked(sub, offset, limit), whole.ranked(sub, offset, limit));
      }
    }
    for (const q of ref.similarity) {
      for (const threshold of [0, 0.3, 0.7]) {
        const query: StructureQuery = { type: 'similarity', query: q.query, threshold };
        for (const [offset, limit] of [[0, 50], [13, 25]] as const) {
          await same(`${q.name} at ${threshold}: page ${offset}+${limit}`, sharded.page(query, offset, limit), whole.page(query, offset, limit));
        }
        await same(`${q.name} at ${threshold}: every hit`, sharded.allIds(query), whole.allIds(query));
      }
      const exact: StructureQuery = { type: 'exact', query: q.query };
      await same(`${q.name}: exact`, sharded.page(exact, 0, 10), whole.page(exact, 0, 10));
    }
  });

  t.test('the raw catalog_search: excluded ids, limit 0, ties by id', async (t) => {
    const benzene = ref.substructure.find((x) => x.name === 'benzene')!;
    const all = await refService.search({ type: 'substructure', query: benzene.query, query_type: 'smiles', offset: 0, limit: 0, count: true });
    const exclude = all.ids.filter((_, i) => i % 5 === 0);
    const calls: SearchArgs[] = [
      { type: 'substructure', query: benzene.query, query_type: 'smiles', offset: 0, limit: 0, count: true, exclude },
      { type: 'substructure', query: benzene.query, query_type: 'smiles', offset: 40, limit: 30, count: true, exclude },
      { type: 'substructure', query: benzene.query, query_type: 'smiles', offset: 5, limit: 0, order: 'similarity', count: true, exclude },
      { type: 'substructure', query: benzene.query, query_type: 'smiles', offset: 100, limit: 50, order: 'similarity', count: true },
      { type: 'similarity', query: 'c1ccccc1O', query_type: 'smiles', threshold: 0, offset: 0, limit: 0, exclude },
      { type: 'similarity', query: 'c1ccccc1O', query_type: 'smiles', threshold: 0.1, offset: 200, limit: 100 },
    ];
    for (const args of calls) {
      const label = `${args.type}${args.order ? ` by ${args.order}` : ''} ${args.offset}+${args.limit}${args.exclude ? ` without ${args.exclude.length}` : ''}`;
      const [s, w] = await Promise.all([raw.search(args), refService.search(args)]);
      t.same({ ids: s.ids, scores: s.scores, total: s.total, more: s.more }, { ids: w.ids, scores: w.scores, total: w.total, more: w.more }, label);
    }
    const ties = await refService.search({ type: 'similarity', query: 'c1ccccc1O', query_type: 'smiles', threshold: 0, offset: 0, limit: 0 });
    t.ok(ties.scores!.some((x, i) => i > 0 && x === ties.scores![i - 1]), 'the similarity lists compared hold ties');
    // Without a count the whole index may stop before the end; the hits and `more` are the same either way.
    for (const [offset, limit] of [[0, 10], [25, 25]]) {
      const args: SearchArgs = { type: 'substructure', query: benzene.query, query_type: 'smiles', offset, limit };
      const [s, w] = await Promise.all([raw.search(args), refService.search(args)]);
      t.same({ ids: s.ids, more: s.more }, { ids: w.ids, more: w.more }, `first hits ${offset}+${limit} without a count`);
    }
  });

  t.test('a write reaches the shard that holds its id', async (t) => {
    const doc = await services.store.insert('molecules', { canonical_smiles: 'CCCCCCCCCCCCCCCCCCCC(=O)NC1=CC=C(Br)C=C1Br', name: 'test dibromoanilide' });
    const query: StructureQuery = { type: 'substructure', query: 'Brc1ccc(NC=O)c(Br)c1' };
    t.same((await sharded.page(query, 0, 10, true)).ids, [doc.id], 'found right after the write');
    await services.store.remove('molecules', [doc.id]);
    t.same((await sharded.page(query, 0, 10, true)).ids, [], 'gone right after the delete');
  });

  t.test('a worker refuses a search meant for another layout', async (t) => {
    // api/services.ts with SEARCH_SHARDS=1 sends the whole search to any worker: one holding a shard says why it cannot answer.
    const err = await services.structure.allIds({ type: 'substructure', query: 'c1ccccc1' }).catch((e: unknown) => e);
    t.equal(AppError.from(err)?.status, 503);
    t.match(AppError.from(err)?.detail, /holds structure-search shard [01] of 2, not the whole index: SEARCH_SHARDS must be the same/);
  });

  t.test('SEARCH_SHARD must be one of the SEARCH_SHARDS', async (t) => {
    t.throws(() => loadConfig({ SEARCH_SHARDS: '2', SEARCH_SHARD: '2' }), /SEARCH_SHARD: must be below SEARCH_SHARDS \(2\)/);
    t.throws(() => loadConfig({ SEARCH_SHARDS: '0' }), /SEARCH_SHARDS/);
    t.match(loadConfig({ SEARCH_SHARDS: '3', SEARCH_SHARD: '2' }), { SEARCH_SHARDS: 3, SEARCH_SHARD: 2 });
    t.match(loadConfig({}), { SEARCH_SHARDS: 1, SEARCH_SHARD: 0 }, 'one shard by default');
  });

  t.test('a shard without a worker answers 503 naming it', async (t) => {
    const three = createStructureSearch({ runner: services.runner, store: services.store, redis: connect(), prefix, log: silentLogger, shards: 3 });
    t.teardown(() => three.close());
    const none = await three.search.allIds({ type: 'substructure', query: 'c1ccccc1' }).catch((e: unknown) => e);
    t.equal(AppError.from(none)?.status, 503);
    t.match(AppError.from(none)?.detail, /No worker holds structure-search shards 0, 1, 2 of 3/);
    // Shard 1's only worker goes: the next search names it, and /health shows it.
    await workers[1].search.close();
    await new Promise((r) => setTimeout(r, 1_100)); // past the layout read the last search used
    const gone = await sharded.page({ type: 'substructure', query: 'c1ccccc1' }, 0, 10).catch((e: unknown) => e);
    t.equal(AppError.from(gone)?.status, 503);
    t.match(AppError.from(gone)?.detail, /No worker holds structure-search shard 1 of 2 \(a worker with SEARCH_SHARDS=2 SEARCH_SHARD=1 would\)/);
    const health = module2.status() as { index: { shards: { shard: number; workers: number; state: string }[] } };
    t.same(health.index.shards.map((s) => [s.shard, s.workers, s.state]), [[0, 1, 'ready'], [1, 0, 'no worker']]);
  });
}
