/**
 * Catalog structure search at scale: 100,000 distinct structures (bench/data/build-search-set.py)
 * in the embedded store, the index built on 2 threads, then exact, similarity (top 50 at 0.7)
 * and substructure (first page of 20, and a full count) timed over the core queries; then
 * COCONUT's search types of `POST /api/search` (bench/search-coconut.ts). Prints p50/p95 per
 * kind, the index build time and the index's memory; asserts nothing.
 *
 *   /usr/bin/python3 bench/data/build-search-set.py          # once: bench/data/search-100k.smi
 *   node --import tsx bench/search.ts                        # first run also builds bench/data/search-store (about 6 min)
 *   THREADS=2 REPEAT=5 node --import tsx bench/search.ts
 *   STRUCTURE=0 node --import tsx bench/search.ts            # COCONUT's types only (COCONUT=0: structure only)
 *
 * The store is kept under bench/data/search-store (git-ignored) so later runs skip the import.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EmbeddedStore } from '../api/catalog/store/embedded.ts';
import { StructureSearch } from '../api/catalog/search/structure/structure.ts';
import { storePages } from '../api/catalog/search/structure/feed.ts';
import { createInlineRunner } from '../shared/jobs/inline.ts';
import { createPool } from '../shared/threads/pool.ts';
import { SearchService } from '../shared/structure-search/service.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { hasBenchCatalog, importBenchCatalog } from './data/search-catalog.ts';
import { coconutBench } from './search-coconut.ts';
import { CORES, CORE_COUNT, exactQueries, similarityQueries } from './data/search-queries.ts';

const THREADS = Number(process.env.THREADS ?? 2);
const REPEAT = Number(process.env.REPEAT ?? 5);
const SET = new URL('./data/search-100k.smi', import.meta.url).pathname;
const DIR = new URL('./data/search-store', import.meta.url).pathname;

if (!existsSync(SET)) {
  console.error(`${SET} is missing: run /usr/bin/python3 bench/data/build-search-set.py first`);
  process.exit(2);
}
const lines = readFileSync(SET, 'utf8').trim().split('\n').map((l) => l.split('\t'));
const pool = createPool(THREADS, threadConfig(loadConfig()));
const runner = createInlineRunner({
  execute: (task, args, hooks) => pool.run(task, args, hooks),
  timeouts: { quickMs: 600_000, longMs: 600_000, waitMs: 600_000, resultTtlSeconds: 60 },
});
const store = await EmbeddedStore.open(DIR);
const mb = (b: number) => (b / 1048576).toFixed(1);

// 1. The store: the set as a full catalog (bench/data/search-catalog.ts: derived structures and
//    properties, identifiers, organisms, citations, collections, class labels).
const have = await store.count('molecules', {});
if (have && !(await hasBenchCatalog(store))) {
  console.error(`${DIR} was built by an older version of this benchmark (no identifiers or properties): delete it and run again`);
  process.exit(2);
}
if (!have) {
  console.log(`building the catalog of ${lines.length} molecules in ${DIR} (derived on ${THREADS} threads) ...`);
  const t0 = performance.now();
  await importBenchCatalog(store, runner, lines.map(([smiles, name]) => ({ smiles, name })), THREADS * 2, (n) => {
    if (n % 10_000 === 0) console.log(`  ${n} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  });
  console.log(`catalog: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
const molecules = await store.count('molecules', {});

// 2. The index.
const service = new SearchService(pool);
global.gc?.();
const rss0 = process.memoryUsage().rss;
const t1 = performance.now();
await service.rebuild(storePages(store), molecules);
const buildMs = performance.now() - t1;
global.gc?.();
const health = service.health();
const rss1 = process.memoryUsage().rss;
console.log(`\nindex: ${health.molecules} molecules (${health.unreadable} unreadable) built in ${(buildMs / 1000).toFixed(1)} s on ${THREADS} threads`);
console.log(`index memory: ${mb(health.bytes)} MB of shared buffers = ${mb((health.bytes * 100_000) / health.molecules)} MB per 100k molecules; api RSS ${mb(rss0)} → ${mb(rss1)} MB`);

// 3. Queries.
const search = new StructureSearch(runner, store);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
const report = (label: string, xs: number[], extra = '') =>
  console.log(`${label.padEnd(34)} n=${String(xs.length).padStart(4)}  p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms  p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms  max ${Math.max(...xs).toFixed(1).padStart(7)} ms ${extra}`);

if (process.env.STRUCTURE !== '0') {
  // Exact: 200 molecules of the set, by SMILES.
  const smiles = lines.map((l) => l[0]);
  const exactTimes: number[] = [];
  for (const query of exactQueries(smiles)) exactTimes.push(await time(() => search.page({ type: 'exact', query }, 0, 20)));
  console.log('');
  report('exact (SMILES → InChIKey → store)', exactTimes);

  // Similarity: 50 molecules of the set, top 50 at 0.7.
  const simTimes: number[] = [];
  for (const query of similarityQueries(smiles)) simTimes.push(await time(() => search.page({ type: 'similarity', query, threshold: 0.7 }, 0, 50)));
  report('similarity (top 50, threshold 0.7)', simTimes);

  // The core queries are the first ten (CORE_COUNT); the recursive SMARTS and the chiral
  // query are reported apart.
  const firstAll: number[] = [];
  const countAll: number[] = [];
  const firstCore: number[] = [];
  const countCore: number[] = [];
  console.log('');
  for (const [name, query, query_type] of CORES) {
    const first: number[] = [];
    const count: number[] = [];
    let total: number | null = null;
    for (let r = 0; r < REPEAT; r++) {
      first.push(await time(() => search.page({ type: 'substructure', query, query_type, use_chirality: name.startsWith('chiral') }, 0, 20)));
      count.push(await time(async () => (total = (await search.page({ type: 'substructure', query, query_type, use_chirality: name.startsWith('chiral') }, 0, 20, true)).total)));
    }
    firstAll.push(...first);
    countAll.push(...count);
    if (CORES.findIndex((c) => c[0] === name) < CORE_COUNT) firstCore.push(...first), countCore.push(...count);
    console.log(`${name.padEnd(22)} hits ${String(total).padStart(6)}   first page p50 ${pct(first, 50).toFixed(0).padStart(5)} ms   full count p50 ${pct(count, 50).toFixed(0).padStart(5)} ms`);
  }
  console.log('');
  report('substructure first page, core queries', firstCore);
  report('substructure full count, core queries', countCore);
  report('substructure first page, all', firstAll);
  report('substructure full count, all', countAll);
}

// 4. COCONUT's search types (POST /api/search without HTTP): bench/search-coconut.ts.
if (process.env.COCONUT !== '0') await coconutBench(store, search, report, time, CORES.slice(0, CORE_COUNT));
console.log(`\nRSS at end ${mb(process.memoryUsage().rss)} MB`);
await runner.close();
await pool.destroy();
await store.close();
