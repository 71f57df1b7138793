/**
 * How long the api takes from its start until structure search answers, over a catalog already
 * built: the real api process started on DATA_DIR (bench/cartridge/natprod.ts), waited for until
 * /health says the index is ready, stopped, and started again. The first start after the
 * catalog changed builds every row it cannot take from the index's saved rows
 * (DATA_DIR/search-index/rows.bin, docs/search.md); the next ones read them back.
 *
 *   node --import tsx bench/ready.ts [DATA_DIR] [--starts N] [--threads N] [--fresh] [--settle S]
 *
 * DATA_DIR defaults to bench/data/search-store (bench/data/search-catalog.ts builds it); --fresh
 * removes the saved rows first, so that the first start builds everything; --starts (default 2).
 * Prints per start: seconds until ready, the index build's share, rows reused and built, api RSS
 * at ready and --settle seconds later (default 20), and then the main thread's V8 heap in use and
 * the memory outside it (the index's shared buffers, the threads' WASM), from /metrics.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NatprodApi } from './cartridge/natprod.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { starts: { type: 'string', default: '2' }, threads: { type: 'string', default: '2' }, fresh: { type: 'boolean', default: false }, settle: { type: 'string', default: '20' } },
});
const dataDir = resolve(positionals[0] ?? 'bench/data/search-store');
if (values.fresh) await rm(join(dataDir, 'search-index'), { recursive: true, force: true });
const mb = (b: number | null) => (b == null ? '?' : `${(b / 1048576).toFixed(0)} MB`);

console.log(`api starts on ${dataDir} (${values.threads} threads)`);
for (let i = 1; i <= Number(values.starts); i++) {
  const api = await NatprodApi.start(dataDir, Number(values.threads));
  const index = await api.index();
  const rss = api.rss();
  // The save after a build runs in the background; its size shows once it is written.
  let saved = index.snapshot as { saved_bytes?: number; unchanged?: boolean } | undefined;
  for (let k = 0; k < 600 && saved && !saved.unchanged && saved.saved_bytes === undefined; k++) {
    await new Promise((r) => setTimeout(r, 100));
    saved = (await api.index()).snapshot as { saved_bytes?: number; unchanged?: boolean } | undefined;
  }
  // RSS right at ready holds the start's garbage (the rows' keys, the saved rows' views) until the
  // collector returns it; read again once the api has been idle a while.
  await new Promise((r) => setTimeout(r, Number(values.settle) * 1000));
  const settled = api.rss();
  const metrics = await (await fetch(`${api.base}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  await api.stop();
  const snap = index.snapshot ? `${index.snapshot.reused} rows reused, ${index.snapshot.built} built, ${saved?.unchanged ? 'the saved rows kept as they were' : `saved ${mb(saved?.saved_bytes ?? null)}`}` : 'no saved rows (distributed mode?)';
  console.log(`start ${i}: ready after ${(api.readyMs / 1000).toFixed(1)} s, index build ${((index.build_ms ?? NaN) / 1000).toFixed(1)} s (${snap}); ${index.molecules} molecules; api RSS ${mb(rss)} at ready, ${mb(settled)} ${values.settle} s later (heap used ${mb(gauge('nodejs_heap_size_used_bytes'))} of ${mb(gauge('nodejs_heap_size_total_bytes'))}, external ${mb(gauge('nodejs_external_memory_bytes'))})`);
}
