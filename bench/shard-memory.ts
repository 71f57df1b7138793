/**
 * What the distributed mode costs per worker process with the structure-search index whole and
 * sharded (docs/search.md, "Sizing and sharding"). Over a benchmark catalog (default the 100,000
 * molecules of bench/data/search-store, run on a copy: the api writes into its DATA_DIR) and the
 * Redis at REDIS_URL (a queue prefix of its own, removed at the end), for each layout — whole
 * (SEARCH_SHARDS=1, one worker) and sharded (SEARCH_SHARDS=2, workers of shard 0 and 1) — and each
 * thread count: starts the api with that SEARCH_SHARDS and waits until it has published the rows,
 * starts the worker process(es) and waits until each one's /health says its index is ready, waits
 * 5 s, then reads each worker's VmRSS and its index's molecules and bytes (its /health) and the
 * api's VmRSS, and asks the api one substructure search to show the layout answers (the first
 * page's ids must be the same in every layout). Prints figures; asserts nothing.
 *
 *   node --import tsx bench/shard-memory.ts [--store DIR] [--threads 1,2]
 *
 * --store: a copy of the catalog to run the api on (never bench/data/search-store itself); without
 * it the bench copies bench/data/search-store into a temporary folder and removes it at the end.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dropKeys, freePort, ROOT, rssMB, running, sleep, startService, stopService, type Service } from './services.ts';

const { values: opts } = parseArgs({ options: { store: { type: 'string' }, threads: { type: 'string', default: '1,2' } } });
const THREADS = opts.threads.split(',').map(Number);
if (!THREADS.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`--threads: a list of positive integers, got ${opts.threads}`);
const ORIGINAL = join(ROOT, 'bench/data/search-store');
if (opts.store && resolve(opts.store) === ORIGINAL) throw new Error('--store must be a copy: the api writes into its DATA_DIR');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `shard-mem-${process.pid}`;
const QUERY = { type: 'substructure', query: 'c1ccc2[nH]ccc2c1', limit: 20 };
const logDir = mkdtempSync(join(tmpdir(), 'natprod-shard-memory-'));

let store = opts.store ? resolve(opts.store) : '';
let copied = false;
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

async function getJson(base: string, path: string): Promise<any> {
  const res = await fetch(base + path, { signal: AbortSignal.timeout(10_000) });
  return res.json(); // a worker's /health answers 503 while not ready, with the same body
}

/** Polls `probe` every second until it returns something, failing when the process exits or after `timeoutMs`. */
async function waitFor<T>(what: string, p: Service, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}) before ${what}; log: ${p.log}`);
    const got = await probe().catch(() => undefined);
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`${p.name}: no ${what} after ${timeoutMs / 1000} s; log: ${p.log}`);
    await sleep(1_000);
  }
}

interface Row {
  layout: string;
  threads: number;
  process: string;
  molecules: number | null;
  indexMB: number | null;
  rssMB: number;
}
const rows: Row[] = [];
interface Paginator {
  data: { id: number }[];
  total: number | null;
}
const answers: string[] = [];

async function startApi(shards: number): Promise<Service> {
  const port = await freePort();
  const api = startService(`api-shards${shards}`, 'api/server.ts', { REDIS_URL, QUEUE_PREFIX: PREFIX, DATA_DIR: store, PORT: String(port), LOG_LEVEL: 'warn', SEARCH_SHARDS: String(shards) }, port, logDir);
  const index = await waitFor('published index', api, async () => {
    const i = (await getJson(api.base, '/health')).structure_search?.index;
    if (i?.state === 'failed') throw new Error(`the api could not publish: ${JSON.stringify(i)}`);
    return i?.state === 'published' ? i : undefined;
  }, 300_000);
  console.log(`[${secs()}] api (SEARCH_SHARDS=${shards}) up, index ${index.state}`);
  return api;
}

async function measure(api: Service, shards: number, threads: number): Promise<void> {
  const layout = shards === 1 ? 'whole (1 shard)' : `${shards} shards`;
  const workers: Service[] = [];
  try {
    for (let k = 0; k < shards; k++) {
      const port = await freePort();
      const vars = { REDIS_URL, QUEUE_PREFIX: PREFIX, WORKERS: String(threads), WORKER_METRICS_PORT: String(port), LOG_LEVEL: 'warn', SEARCH_SHARDS: String(shards), SEARCH_SHARD: String(k) };
      workers.push(startService(`worker-${k}-of-${shards}-t${threads}`, 'workers/main.ts', vars, port, logDir));
    }
    const health = await Promise.all(
      workers.map((w) =>
        waitFor('ready index', w, async () => {
          const s = (await getJson(w.base, '/health')).structure_search;
          if (s?.state === 'failed') throw new Error(`${w.name}: index failed: ${JSON.stringify(s)}`);
          return s?.state === 'ready' ? s : undefined;
        }, 300_000),
      ),
    );
    console.log(`[${secs()}] ${layout}, ${threads} thread(s): ${workers.length} worker(s) ready; waiting 5 s`);
    await sleep(5_000);
    for (const [i, w] of workers.entries()) {
      const s = (await getJson(w.base, '/health')).structure_search ?? health[i];
      rows.push({ layout, threads, process: shards === 1 ? 'worker' : `worker shard ${i}`, molecules: s.molecules, indexMB: s.bytes / 2 ** 20, rssMB: rssMB(w) });
    }
    rows.push({ layout, threads, process: 'api', molecules: null, indexMB: null, rssMB: rssMB(api) });
    // The api hears of the workers' shards from their announcements (every 5 s): they are in by now.
    const t = performance.now();
    const res = await fetch(`${api.base}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUERY), signal: AbortSignal.timeout(120_000) });
    const ms = performance.now() - t;
    const body = (await res.json()) as { data?: Paginator };
    if (res.status !== 200) throw new Error(`POST /api/search (${layout}): ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    // COCONUT's form of the request: COCONUT's answer, {data: <Laravel paginator>}.
    const page = body.data!;
    const ids = page.data.map((d) => d.id);
    answers.push(ids.join(','));
    console.log(`  search ${QUERY.query} limit ${QUERY.limit}: ${ids.length} hits, total ${page.total}, ${ms.toFixed(0)} ms; first ids ${ids.slice(0, 5).join(', ')}`);
  } finally {
    await Promise.all(workers.map((w) => stopService(w, 5_000)));
  }
}

async function cleanUp(): Promise<void> {
  await Promise.all([...running].map((p) => stopService(p, 5_000)));
  await dropKeys(REDIS_URL, PREFIX);
  if (copied) rmSync(store, { recursive: true, force: true });
}
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

try {
  if (!store) {
    store = mkdtempSync(join(tmpdir(), 'natprod-shard-store-'));
    copied = true;
    cpSync(ORIGINAL, store, { recursive: true });
    console.log(`[${secs()}] copied the catalog to ${store}`);
  }
  console.log(`catalog ${store}, Redis ${REDIS_URL} (prefix ${PREFIX}), threads ${THREADS.join(', ')}; logs in ${logDir}`);
  for (const shards of [1, 2]) {
    const api = await startApi(shards);
    for (const threads of THREADS) await measure(api, shards, threads);
    await stopService(api, 5_000);
  }
} finally {
  await cleanUp();
}

const f = (n: number | null, d = 1) => (n === null ? '' : n.toFixed(d));
console.log('\n| layout | threads | process | molecules | index MB | RSS MB |\n|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.layout} | ${r.threads} | ${r.process} | ${r.molecules ?? ''} | ${f(r.indexMB, 2)} | ${f(r.rssMB)} |`);
console.log(`\nthe first page of ${QUERY.query} was ${new Set(answers).size === 1 ? 'the same' : 'NOT the same'} in every layout; ${secs()} in all`);
