/**
 * The first page of substructure hits (no count) in process: the ten core queries
 * (bench/data/search-queries.ts) asked of the search index of a benchmark catalog, REPEAT times
 * each after one round untimed; prints p50 per query with the scan's statistics (rows screened,
 * candidates matched), then p50/p95 over all. No HTTP, no records: the scan alone, which is what
 * changes when the scan does. Asserts nothing.
 *
 *   node --import tsx bench/first-page.ts [STORE] [--repeat N] [--root DIR]
 *
 * STORE defaults to bench/data/search-store (bench/data/search-catalog.ts builds it). `--root`
 * runs another checkout's search code on the same store (an A/B in one sitting: `git worktree
 * add /tmp/old <ref>`, link its node_modules, `--root /tmp/old`); its index is built from the
 * store (the snapshot file is read, never written).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { repeat: { type: 'string', default: '20' }, root: { type: 'string' } } });
const ROOT = resolve(values.root ?? new URL('..', import.meta.url).pathname);
const DIR = resolve(positionals[0] ?? new URL('./data/search-store', import.meta.url).pathname);
const REPEAT = Number(values.repeat);
const load = (path: string) => import(`${ROOT}/${path}`);
const { EmbeddedStore } = await load('api/catalog/store/embedded.ts');
const { storePages } = await load('api/catalog/search/structure/feed.ts');
const { createPool } = await load('shared/threads/pool.ts');
const { SearchService } = await load('shared/structure-search/service.ts');
const { loadConfig, threadConfig } = await load('shared/config.ts');
const { CORES, CORE_COUNT } = await import('./data/search-queries.ts');

const config = loadConfig();
const pool = createPool(config.WORKERS, threadConfig(config));
const store = await EmbeddedStore.open(DIR);
const service = new SearchService(pool);
await service.rebuild(storePages(store), await store.count('molecules', {}));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`${ROOT} on ${DIR}: ${service.health().molecules} molecules, ${pool.threads.length} threads, ${REPEAT} rounds`);
for (let round = 0; round < 2; round++) {
  const all: number[] = [];
  for (const [name, query, query_type] of CORES.slice(0, CORE_COUNT)) {
    const times: number[] = [];
    let stats: unknown;
    for (let i = 0; i < (round ? REPEAT : 1); i++) {
      const t = performance.now();
      const r = await service.search({ type: 'substructure', query, query_type, use_chirality: false, threshold: 0.7, offset: 0, limit: 24 });
      times.push(performance.now() - t);
      stats = r.stats;
    }
    all.push(...times);
    if (round) console.log(`${name.padEnd(16)} p50 ${pct(times, 0.5).toFixed(2).padStart(6)} ms  ${JSON.stringify(stats)}`);
  }
  if (round) console.log(`first page, core queries: p50 ${pct(all, 0.5).toFixed(2)} ms, p95 ${pct(all, 0.95).toFixed(2)} ms (n=${all.length})`);
}
await pool.destroy();
await store.close();
