/**
 * The web interface's figures (docs/web.md), printed, asserted nowhere: the first page's script
 * and stylesheet gzipped, the search page's time to interactive, the structure editor's load time
 * after it is opened (Ketcher's chunks, stylesheet, worker and WASM fetched, mounted, Indigo
 * answering) with what it fetched, and how long a results page of 24
 * compounds takes to show every depiction after the search's answer. The api runs in this process
 * (inline, embedded store) with a slice of the LOTUS demo sample, Chromium headless on the same
 * machine; each figure is the median of BENCH_RUNS runs, each in a fresh browser profile (nothing cached).
 *
 *   node --import tsx bench/web.ts
 *   BENCH_ROWS=300 BENCH_RUNS=7 node --import tsx bench/web.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '../api/app.ts';
import { createServices } from '../api/services.ts';
import { importFile } from '../api/catalog/import/run.ts';
import { webBundle } from '../api/web/bundle.ts';
import { loadConfig } from '../shared/config.ts';
import { chromiumPath } from '../test/helpers/skip.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = chromiumPath();
if (!CHROMIUM) {
  console.error('no Chromium (CHROMIUM_PATH, or chromium on PATH)');
  process.exit(1);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-web-'));
const config = loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', RATE_LIMIT_QUICK: '0', RATE_LIMIT_LONG: '0', RATE_LIMIT_WRITES: '0', LONG_JOBS_PER_CLIENT: '0' });
const services = await createServices(config);
const app = await buildApp({ services });
const text = gunzipSync(readFileSync(new URL('../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url))).toString('utf8');
const [head, ...rows] = text.split('\n').filter((l) => l.trim() !== '');
const slice = join(dir, 'slice.tsv');
await writeFile(slice, `${[head, ...rows.slice(0, ROWS)].join('\n')}\n`);
const t = performance.now();
await importFile(services.store, slice, { derive: (i) => services.derive(i) });
await services.searchIndex.start();
console.log(`catalog: ${ROWS} LOTUS rows imported and indexed in ${Math.round(performance.now() - t)} ms`);
const origin = new URL(await app.listen({ port: 0, host: '127.0.0.1' })).origin;

const bundle = await webBundle();
const first = bundle.first.map((n) => [n, bundle.assets.get(n)!] as const);
const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;
console.log(`bundle built in ${Math.round(bundle.ms)} ms`);
console.log(`first page (${bundle.first.join(', ')}): ${(bundle.firstBytes / 1024).toFixed(1)} KB, ${(first.reduce((n, [, a]) => n + gz(a.body), 0) / 1024).toFixed(1)} KB gzipped (limit 300 KB)`);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const tti: number[] = [];
const editor: number[] = [];
const render: number[] = [];
// A first, unmeasured round warms the threads (RDKit loads on a thread's first task).
for (let run = 0; run <= RUNS; run++) {
  // A fresh profile each run: nothing cached from the run before.
  const profile = await mkdtemp(join(dir, 'profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error', e.message));
  await page.goto(`${origin}/search`);
  await page.waitForSelector('body[data-ready="true"]');
  const ready = Number(await page.getAttribute('body', 'data-ready-ms'));
  // What opening the editor fetches (Ketcher's chunks, stylesheet, worker and WASM), from the first run.
  const fetched: string[] = [];
  const onResponse = (r: { url(): string }) => void (r.url().includes('/static/web/') && fetched.push(r.url().slice(r.url().lastIndexOf('/') + 1)));
  const t0 = performance.now();
  page.on('response', onResponse);
  await page.click('#draw');
  await page.waitForSelector('[data-editor="ready"]', { timeout: 60_000 });
  const editorMs = performance.now() - t0;
  page.off('response', onResponse);
  if (run === 0) {
    console.log(`editor (${await page.getAttribute('.editor-host', 'data-editor-kind')}) fetched when opened:`);
    let raw = 0;
    let packed = 0;
    for (const n of fetched) {
      const a = bundle.assets.get(n);
      if (!a) continue;
      const z = a.gzip?.length ?? gz(a.body);
      raw += a.body.length;
      packed += z;
      console.log(`  ${n}: ${(a.body.length / 1024).toFixed(0)} KB, ${(z / 1024).toFixed(0)} KB gzipped`);
    }
    console.log(`  in all: ${(raw / 1024 / 1024).toFixed(2)} MB, ${(packed / 1024 / 1024).toFixed(2)} MB gzipped`);
  }
  // A results page of 24 compounds: every depiction painted, counted from the search's answer. The
  // depictions load lazily, as they come into view: a tall window has all 24 in view.
  await page.setViewportSize({ width: 1280, height: 4000 });
  await page.goto(`${origin}/search?type=text&page=${run + 1}`);
  await page.waitForSelector('#results .card');
  // As a string: tsx would wrap a function's inner arrows in helpers the page does not have.
  const renderMs = (await page.evaluate(`(async () => {
    const imgs = [...document.querySelectorAll('#results img')];
    await Promise.all(imgs.map((i) => (i.complete ? null : new Promise((r) => { i.addEventListener('load', r, { once: true }); i.addEventListener('error', r, { once: true }); }))));
    const answered = Number(document.getElementById('results').dataset.answeredAt);
    const ends = performance.getEntriesByType('resource').filter((e) => e.name.includes('/depict/2D')).map((e) => e.responseEnd);
    return { ms: Math.max(...ends) - answered, images: imgs.length };
  })()`)) as { ms: number; images: number };
  if (run > 0) {
    tti.push(ready);
    editor.push(editorMs);
    render.push(renderMs.ms);
  }
  console.log(`run ${run}${run ? '' : ' (warm-up)'}: interactive ${ready} ms, editor ${Math.round(editorMs)} ms, ${renderMs.images} depictions ${Math.round(renderMs.ms)} ms after the answer`);
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
console.log(`\nmedians of ${RUNS} runs: search page interactive ${median(tti)} ms (target ≤ 1000), editor ${Math.round(median(editor))} ms after opening (≤ 3000), 24 depictions ${Math.round(median(render))} ms after the answer (≤ 500)`);
await app.close();
await services.close(0);
await rm(dir, { recursive: true, force: true });
