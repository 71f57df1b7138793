/**
 * MS dereplication (`POST /api/search` with `type: "mass"`) over the 100,000-molecule benchmark
 * catalog (bench/data/search-store, built by bench/data/search-catalog.ts; see
 * bench/data/README.md), timed through `coconutSearch()`, the route's code without HTTP:
 *
 *   node --import tsx bench/mass.ts
 *
 * - the index build (the first search after start, or after another process wrote);
 * - one m/z per request (1,000 requests): the default adducts (11), 5 ppm, limit 24, records read
 *   from the store: p50, p95, p99; and the index lookup alone (windows and ranking, no records);
 * - one request with 1,000 m/z values (same adducts and tolerance), five times.
 * The m/z values are seeded: the [M+H]+ or [M-H]- of catalog molecules drawn at random, shifted
 * by up to ±3 ppm, and one in five a random m/z in 100-1,200. Asserts nothing. Opens the store
 * read-only in effect (it writes nothing).
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { EmbeddedStore } from '../api/catalog/store/embedded.ts';
import { coconutSearch } from '../api/catalog/search/coconut/answer.ts';
import { observeMassWrites } from '../api/catalog/search/mass/mass-index.ts';
import { readyIndex, hitsForMz } from '../api/catalog/search/mass/mass-search.ts';
import { ADDUCTS_BY_NAME, DEFAULT_ADDUCTS } from '../api/catalog/search/mass/adducts.ts';
import { rng } from './data/search-catalog.ts';

const DIR = process.env.MASS_BENCH_STORE ?? fileURLToPath(new URL('./data/search-store', import.meta.url));
const N = 1000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (label: string, xs: number[]) =>
  console.log(`${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(3)} ms  p95 ${pct(xs, 95).toFixed(3)} ms  p99 ${pct(xs, 99).toFixed(3)} ms  max ${Math.max(...xs).toFixed(3)} ms`);

const raw = await EmbeddedStore.open(DIR);
const store = observeMassWrites(raw);
const molecules = await raw.count('molecules', {});
console.log(`catalog ${DIR}: ${molecules} molecules`);
const search = (body: Record<string, unknown>) => coconutSearch({ store, structure: null as never }, { type: 'mass', ...body });

let t0 = performance.now();
const index = await readyIndex(store);
console.log(`index build (first search): ${(performance.now() - t0).toFixed(0)} ms, indexed by charge ${JSON.stringify(index.size())}`);

const random = rng(7);
const sample = await raw.find('molecules', {}, { fields: ['properties.exact_molecular_weight'] });
const masses = sample.map((d) => (d.properties as { exact_molecular_weight?: number } | undefined)?.exact_molecular_weight).filter((m): m is number => typeof m === 'number');
const mzs = Array.from({ length: N }, () => {
  if (random() < 0.2) return 100 + random() * 1100;
  const m = masses[Math.floor(random() * masses.length)];
  const mz = random() < 0.5 ? m + 1.007276 : m - 1.007276;
  return mz * (1 + (random() * 6 - 3) * 1e-6);
});

// Warm-up (JIT, the store's record reads).
for (const mz of mzs.slice(0, 50)) await search({ query: mz });

const perRequest: number[] = [];
let hits = 0;
for (const mz of mzs) {
  t0 = performance.now();
  const out = (await search({ query: mz })) as { data: { total: number } };
  perRequest.push(performance.now() - t0);
  hits += out.data.total;
}
fmt('one m/z per request (records included)', perRequest);
console.log(`  mean hits per m/z: ${(hits / N).toFixed(1)} (default adducts ${DEFAULT_ADDUCTS.length}, 5 ppm)`);

const adducts = DEFAULT_ADDUCTS.map((n) => ADDUCTS_BY_NAME.get(n)!);
const lookup: number[] = [];
for (const mz of mzs) {
  t0 = performance.now();
  hitsForMz(index, mz, adducts, { ppm: 5 });
  lookup.push(performance.now() - t0);
}
fmt('index lookup alone (windows, ranking)', lookup);

const listTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  t0 = performance.now();
  const out = (await search({ query: mzs })) as { data: { total: number }[] };
  listTimes.push(performance.now() - t0);
  if (i === 0) console.log(`  1,000-value request: ${out.data.reduce((s, e) => s + e.total, 0)} hits in all`);
}
console.log(`1,000 m/z values in one request: ${listTimes.map((x) => x.toFixed(0)).join(', ')} ms (median ${pct(listTimes, 50).toFixed(0)} ms)`);

// A write through this process: the next search merges the written molecule back in.
const some = sample[Math.floor(sample.length / 2)];
const patch: number[] = [];
for (let i = 0; i < 5; i++) {
  index.changed([some.id]);
  t0 = performance.now();
  await index.sync();
  patch.push(performance.now() - t0);
}
console.log(`merge of one written molecule into the index: ${patch.map((x) => x.toFixed(1)).join(', ')} ms`);
await raw.close();
