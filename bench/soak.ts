/**
 * Soak: a long run at about 80 % of the measured maximum on a mix of operations, watching the
 * memory of every process. For each mode (the service started as child processes, as deployed):
 *
 *   1. measure the maximum of the mix: autocannon, SOAK_CONNECTIONS connections, SOAK_MAX_SECONDS;
 *   2. drive the mix at SOAK_LOAD × that maximum, a fixed rate (autocannon's overallRate), for
 *      SOAK_SECONDS;
 *   3. every SOAK_SAMPLE_SECONDS print, per process (api; worker in the distributed mode), its RSS
 *      (now, and the median of the window's once-a-second readings), its main thread's V8 heap in
 *      use and the WebAssembly memory of each of its RDKit threads (`nodejs_heap_size_used_bytes`
 *      and `natprod_wasm_memory_bytes` on its /metrics), with the window's throughput, latency
 *      and failures;
 *   4. at the end, say whether each of these stayed within ±SOAK_TOLERANCE of its value at the end
 *      of the warm-up (the first SOAK_WARMUP_SECONDS): RSS judged on the window medians, since
 *      a single reading lands anywhere on the garbage collector's saw-tooth.
 *
 * The mix, in turn: canonical SMILES ×3, InChIKey ×3, descriptors ×2, 2D depiction ×2, a catalog
 * search (POST /api/molecules/search, molecular-weight filter, with a reader token) and a
 * structure search (POST /api/search, substructure and similarity alternately), over the LOTUS
 * demo molecules, a different one each time. The catalog is the LOTUS demo set (1,242 molecules),
 * imported once into a template directory that each mode copies.
 *
 *   npm run soak                                   # 10 minutes per mode, both modes
 *   SOAK_SECONDS=180 SOAK_MODE=inline npm run soak
 *
 * Environment (defaults in brackets):
 *   SOAK_MODE [both]            inline | distributed | both (one after the other)
 *   SOAK_SECONDS [600]          seconds of load at the fixed rate, per mode
 *   SOAK_WARMUP_SECONDS [60]    not judged: the values at its end are the reference
 *   SOAK_SAMPLE_SECONDS [30]    interval of the printed samples
 *   SOAK_LOAD [0.8]             share of the measured maximum to drive at
 *   SOAK_MAX_SECONDS [15]       length of the maximum's measurement (after 5 s of warm-up)
 *   SOAK_CONNECTIONS [32]       connections of both phases
 *   SOAK_TOLERANCE [0.10]       allowed drift of memory after the warm-up
 *   SOAK_WORKER_THREADS         WORKERS of the worker process [cores]; the inline api uses the default (cores)
 *   REDIS_URL                   Redis of the distributed mode; else 127.0.0.1:6379, else a
 *                               redis-server started here (a prefix of its own; keys removed at the end)
 *
 * autocannon runs in this process, on the same cores as the service. For each memory figure the
 * end prints its largest change after the warm-up and its change at the end of the run. Exit code
 * 1 when a figure ended above the tolerance (growth that did not come back: a leak's sign; a long
 * garbage-collection cycle can take RSS out of the band and back, which is reported, not failed)
 * or more than 1 % of the requests failed, 2 when a mode could not start.
 */
import autocannon, { type Options, type Request, type Result } from 'autocannon';
import { execFileSync} from 'node:child_process';
import { cpSync, mkdtempSync} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRedis, type TestRedis } from '../test/helpers/redis.ts';
import { dropKeys, freePort, INHERITED, lotusSmiles, rssMB, running, ROOT, sleep, startService, stopService, type Service } from './services.ts';

// Fields of autocannon this bench uses beyond bench/autocannon.d.ts.
declare module 'autocannon' {
  interface Options {
    /** Requests per second over all connections. */
    overallRate?: number;
  }
  interface Request {
    body?: string;
    headers?: Record<string, string>;
  }
}
type Instance = Promise<Result> & {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'reqError', fn: (err: Error) => void): void;
};

const env = process.env;
const num = (name: string, dflt: number) => (env[name] ? Number(env[name]) : dflt);
const SECONDS = num('SOAK_SECONDS', 600);
const WARMUP = Math.min(num('SOAK_WARMUP_SECONDS', 60), SECONDS);
const SAMPLE = num('SOAK_SAMPLE_SECONDS', 30);
const LOAD = num('SOAK_LOAD', 0.8);
const MAX_SECONDS = num('SOAK_MAX_SECONDS', 15);
const CONNECTIONS = num('SOAK_CONNECTIONS', 32);
const TOLERANCE = num('SOAK_TOLERANCE', 0.1);
const CORES = availableParallelism();
const WORKER_THREADS = num('SOAK_WORKER_THREADS', CORES);
const MODE = env.SOAK_MODE ?? 'both';
if (!['inline', 'distributed', 'both'].includes(MODE)) throw new Error(`SOAK_MODE: inline, distributed or both, not ${MODE}`);
const MODES = MODE === 'both' ? ['inline', 'distributed'] : [MODE];
const TMP = mkdtempSync(join(tmpdir(), 'natprod-soak-'));
const RUN_ID = `natprod-soak-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

// --- the mix --------------------------------------------------------------------------------
const SMILES = await lotusSmiles();
const ENCODED = SMILES.map(encodeURIComponent);
// Ring systems common in natural products: a page of hits is found early in the scan.
const SUBSTRUCTURES = ['c1ccc2[nH]ccc2c1', 'c1ccc2occc2c1', 'O=c1ccc2ccccc2o1', 'C1CCC2C(C1)CCC1C2CCC2CCCC21', 'OC1COC(O)C(O)C1O', 'c1ccc2ccccc2c1', 'C1CCNCC1', 'O=C1CCCO1'];

const OPS = ['canonical', 'inchikey', 'descriptors', 'depict', 'canonical', 'inchikey', 'catalog', 'canonical', 'inchikey', 'descriptors', 'depict', 'structure'] as const;
type Op = (typeof OPS)[number];
let counter = 0;

function nextRequest(token: string): Request {
  return { headers: {}, ...mixRequest(token) };
}

function mixRequest(token: string): Request {
  const i = counter++;
  const op: Op = OPS[i % OPS.length]!;
  const m = Math.floor(i / OPS.length);
  const mol = ENCODED[m % ENCODED.length]!;
  switch (op) {
    case 'canonical':
      return { method: 'GET', path: `/latest/convert/canonicalsmiles?smiles=${mol}` };
    case 'inchikey':
      return { method: 'GET', path: `/latest/convert/inchikey?smiles=${mol}` };
    case 'descriptors':
      return { method: 'GET', path: `/latest/chem/descriptors?smiles=${mol}` };
    case 'depict':
      return { method: 'GET', path: `/latest/depict/2D?smiles=${mol}` };
    case 'catalog':
      return {
        method: 'POST',
        path: '/api/molecules/search',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ search: { filters: [{ field: 'properties.molecular_weight', operator: '>', value: 150 + (m % 600) }], limit: 10 } }),
      };
    case 'structure':
      return {
        method: 'POST',
        path: '/api/search',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(m % 2
          ? { type: 'substructure', query: SUBSTRUCTURES[m % SUBSTRUCTURES.length], limit: 10 }
          : { type: 'similarity', query: SMILES[m % SMILES.length], threshold: 0.7, limit: 10 }),
      };
  }
}

// --- processes ------------------------------------------------------------------------------
type Proc = Service;
const start = (name: string, script: string, vars: Record<string, string>, port: number): Proc => startService(name, script, vars, port, TMP);
const stop = (p: Proc, graceMs = 15_000) => stopService(p, graceMs);

/** Polls /health until `ok(body)` holds. */
async function until(p: Proc, what: string, ok: (body: Record<string, any>) => boolean, timeoutMs = 300_000): Promise<Record<string, any>> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}); see ${p.log}`);
    const body = await fetch(`${p.base}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.json() as Promise<Record<string, any>>, () => undefined);
    if (body && ok(body)) return body;
    await sleep(500);
  }
  throw new Error(`${p.name}: ${what} not reached within ${timeoutMs / 1000} s; see ${p.log}`);
}


/**
 * From the process's /metrics: bytes of each RDKit thread's WebAssembly memory, and the main
 * thread's V8 heap in use (the chemistry threads' own heaps are not reported; they are in RSS).
 */
async function scrape(p: Proc): Promise<{ wasm: number[]; heap: number }> {
  const text = await fetch(`${p.base}/metrics`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.text(), () => '');
  const lines = text.split('\n');
  const value = (l: string) => Number(l.slice(l.lastIndexOf(' ') + 1));
  const heap = lines.find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
  return { wasm: lines.filter((l) => l.startsWith('natprod_wasm_memory_bytes{')).map(value), heap: heap ? value(heap) : NaN };
}

// --- the catalog ------------------------------------------------------------------------------
/** The LOTUS demo set imported by an inline api into a directory, plus a reader token. */
async function seedTemplate(): Promise<{ dir: string; token: string }> {
  const dir = join(TMP, 'template');
  const port = await freePort();
  const api = start('seed-api', 'api/server.ts', { DATA_DIR: dir, SEED_DEMO: 'true', PORT: String(port) }, port);
  const t0 = Date.now();
  try {
    const h = await until(api, 'demo import and search index', (b) => b.demo_import?.state === 'done' && b.structure_search?.index?.state === 'ready' && b.structure_search.index.molecules > 0, 600_000);
    console.log(`catalog: LOTUS demo set imported in ${((Date.now() - t0) / 1000).toFixed(0)} s (${h.structure_search.index.molecules} molecules indexed)`);
  } finally {
    await stop(api);
  }
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'api/catalog/cli/token.ts', '--email', 'soak@example.org', '--role', 'reader'], {
    cwd: ROOT,
    env: { ...INHERITED, DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return { dir, token: out.trim().split('\n').at(-1)! };
}

// --- load -------------------------------------------------------------------------------------
interface Window { count: number; failed: number; codes: Map<number, number>; latencies: number[]; rss: Record<string, number[]> }
const newWindow = (): Window => ({ count: 0, failed: 0, codes: new Map(), latencies: [], rss: {} });

function cannon(base: string, token: string, opts: Partial<Options>, window?: () => Window): Instance {
  const inst = autocannon({
    url: base,
    connections: CONNECTIONS,
    timeout: 40,
    // autocannon builds the first entry once before any setupRequest call: it needs its fields.
    requests: [{ method: 'GET', path: '/health', headers: {}, setupRequest: () => nextRequest(token) }],
    ...opts,
  }) as Instance;
  if (window) {
    inst.on('response', (_c, status, _b, ms) => {
      const w = window();
      w.count++;
      w.latencies.push(ms);
      if (status < 200 || status >= 300) {
        w.failed++;
        w.codes.set(status, (w.codes.get(status) ?? 0) + 1);
      }
    });
    inst.on('reqError', () => {
      const w = window();
      w.failed++;
      w.codes.set(0, (w.codes.get(0) ?? 0) + 1);
    });
  }
  return inst;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
const mib = (b: number) => b / 2 ** 20;

/** `rss`: at the sample; `rssMedian`: median of the once-a-second readings of the window (GC's saw-tooth smoothed). */
interface Sample { t: number; rate: number; p50: number; p99: number; failed: number; codes: string; rss: Record<string, number>; rssMedian: Record<string, number>; heap: Record<string, number>; wasm: Record<string, number[]> }

interface ModeResult { mode: string; max: number; target: number; samples: Sample[]; total: number; failed: number; verdict: string[]; drifted: boolean }

async function soakMode(mode: string, template: { dir: string; token: string }, redis: TestRedis | undefined): Promise<ModeResult> {
  const dataDir = join(TMP, mode, 'data');
  cpSync(template.dir, dataDir, { recursive: true });
  const procs: Proc[] = [];
  const prefix = `${RUN_ID}-${mode}`;
  try {
    const apiPort = await freePort();
    const shared: Record<string, string> = { DATA_DIR: dataDir };
    if (mode === 'distributed') {
      if (!redis) throw new Error('no Redis (REDIS_URL, 127.0.0.1:6379 or a redis-server binary)');
      Object.assign(shared, { REDIS_URL: redis.url, QUEUE_PREFIX: prefix });
    }
    const api = start(`${mode}-api`, 'api/server.ts', { ...shared, PORT: String(apiPort) }, apiPort);
    procs.push(api);
    if (mode === 'distributed') {
      const port = await freePort();
      procs.push(start(`${mode}-worker`, 'workers/main.ts', { ...shared, WORKERS: String(WORKER_THREADS), WORKER_METRICS_PORT: String(port) }, port));
    }
    // Ready when the structure-search index is: built by the api's threads (inline) or
    // published by the api and loaded by the worker (distributed).
    await until(api, 'search index', (b) => ['ready', 'published'].includes(b.structure_search?.index?.state));
    if (procs[1]) await until(procs[1], 'search index', (b) => b.status === 'OK' && b.structure_search?.state === 'ready' && b.structure_search.molecules > 0);
    console.log(`\n== ${mode}: ${mode === 'inline' ? `api alone (${CORES} threads)` : `api + 1 worker × ${WORKER_THREADS} threads, Redis ${redis!.url}, prefix ${prefix}`}; logs ${TMP}`);
    for (const p of procs) console.log(`   ${p.name.padEnd(20)} pid ${p.child.pid}`);
    const base = `http://127.0.0.1:${apiPort}`;

    // 1. The maximum of the mix.
    await cannon(base, template.token, { duration: 5 });
    const maxRun = await cannon(base, template.token, { duration: MAX_SECONDS });
    const max = maxRun.requests.average;
    const target = Math.max(1, Math.round(LOAD * max));
    console.log(`   maximum of the mix: ${max.toFixed(0)} req/s (p50 ${maxRun.latency.p50} ms, p99 ${maxRun.latency.p99} ms, non-2xx ${maxRun.non2xx}, errors ${maxRun.errors}); soak at ${target} req/s (${Math.round(LOAD * 100)} %) for ${SECONDS} s`);
    await sleep(2_000);

    // 2. The soak, sampled.
    let window = newWindow();
    const samples: Sample[] = [];
    const names = procs.map((p) => p.name.replace(`${mode}-`, ''));
    console.log(`   ${'t s'.padStart(5)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'failed'.padStart(6)}  ` +
      names.map((n) => `${n} RSS MB (median)`.padStart(24) + `${n} heap MB`.padStart(16) + `  ${n} WASM MiB (per thread)`.padEnd(30)).join(''));
    const t0 = Date.now();
    let last = t0;
    const sample = async () => {
      const now = Date.now();
      const w = window;
      window = newWindow();
      w.latencies.sort((a, b) => a - b);
      const s: Sample = {
        t: Math.round((now - t0) / 1000),
        rate: w.count / Math.max(0.001, (now - last) / 1000),
        p50: pct(w.latencies, 50),
        p99: pct(w.latencies, 99),
        failed: w.failed,
        codes: [...w.codes].map(([c, n]) => `${c || 'error'}×${n}`).join(' '),
        rss: Object.fromEntries(procs.map((p, i) => [names[i], rssMB(p)])),
        rssMedian: Object.fromEntries(names.map((n, i) => [n, w.rss[n]?.length ? pct([...w.rss[n]!].sort((a, b) => a - b), 50) : rssMB(procs[i]!)])),
        wasm: {},
        heap: {},
      };
      await Promise.all(procs.map(async (p, i) => {
        const m = await scrape(p);
        s.wasm[names[i]!] = m.wasm;
        s.heap[names[i]!] = mib(m.heap);
      }));
      last = now;
      samples.push(s);
      console.log(`   ${String(s.t).padStart(5)} ${s.rate.toFixed(0).padStart(7)} ${s.p50.toFixed(0).padStart(7)} ${s.p99.toFixed(0).padStart(7)} ${String(s.failed).padStart(6)}  ` +
        names.map((n) => `${s.rss[n]!.toFixed(0)} (${s.rssMedian[n]!.toFixed(0)})`.padStart(24) + s.heap[n]!.toFixed(0).padStart(16) + `  ${s.wasm[n]!.length ? `${mib(s.wasm[n]!.reduce((a, b) => a + b, 0)).toFixed(1)} (${s.wasm[n]!.map((b) => mib(b).toFixed(1)).join(' + ')})` : '-'}`.padEnd(30)).join('') +
        (s.codes ? `  ${s.codes}` : ''));
    };
    await sample();
    const load = cannon(base, template.token, { duration: SECONDS, overallRate: target }, () => window);
    const timer = setInterval(() => void sample(), SAMPLE * 1000);
    const reader = setInterval(() => names.forEach((n, i) => (window.rss[n] ??= []).push(rssMB(procs[i]!))), 1000);
    const result = await load;
    clearInterval(timer);
    clearInterval(reader);
    if (Date.now() - last > 2_000) await sample();

    // 3. Drift after the warm-up, against the first sample at or after its end.
    const after = samples.filter((s) => s.t >= WARMUP - 1);
    const ref = after[0];
    const verdict: string[] = [];
    let drifted = false;
    // Two readings: whether every sample stayed within the tolerance (a GC cycle of several
    // minutes can take RSS out of it and back), and where the run ended (what a leak shows).
    const judge = (label: string, values: number[]) => {
      const base0 = values[0]!;
      const devs = values.map((v) => (v - base0) / base0);
      const worst = devs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
      const end = devs.at(-1)!;
      const fmt = (d: number) => `${d > 0 ? '+' : ''}${(d * 100).toFixed(1)} %`;
      const within = (d: number) => (Math.abs(d) <= TOLERANCE ? 'within' : d > 0 ? 'BEYOND (grew)' : 'beyond (shrank)');
      if (end > TOLERANCE) drifted = true;
      verdict.push(`${label}: ${values.map((v) => v.toFixed(1)).join(' → ')}; largest change ${fmt(worst)} ${within(worst)}, at the end ${fmt(end)} ${within(end)} ±${TOLERANCE * 100} %`);
    };
    if (ref && after.length > 1) {
      for (const n of names) {
        judge(`${n} RSS MB (window medians)`, after.map((s) => s.rssMedian[n]!));
        if (ref.wasm[n]!.length) judge(`${n} WASM MiB (all threads)`, after.map((s) => mib(s.wasm[n]!.reduce((a, b) => a + b, 0))));
      }
    } else verdict.push(`too short to judge: no two samples after the ${WARMUP} s warm-up`);
    const total = result.requests.total;
    const failed = result.non2xx + result.errors;
    console.log(`   soak: ${total} requests, ${(total / SECONDS).toFixed(0)} req/s on average (target ${target}), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
    console.log(`   memory after the ${WARMUP} s warm-up (from t = ${ref?.t ?? '-'} s):`);
    for (const v of verdict) console.log(`     ${v}`);
    return { mode, max, target, samples, total, failed, verdict, drifted };
  } finally {
    await Promise.all(procs.map((p) => stop(p)));
    if (mode === 'distributed' && redis) await dropKeys(redis.url, prefix);
  }
}

/** Removes the run's keys from Redis (finished jobs would stay for JOB_RESULT_TTL). */

// --- main -------------------------------------------------------------------------------------
process.on('SIGINT', () => void Promise.all([...running].map((p) => stop(p, 3000))).then(() => process.exit(130)));

console.log(`natprod soak: ${MODES.join(' then ')}, ${SECONDS} s per mode at ${Math.round(LOAD * 100)} % of the measured maximum, ` +
  `samples every ${SAMPLE} s, warm-up ${WARMUP} s, tolerance ±${TOLERANCE * 100} %, ${CONNECTIONS} connections, ${CORES} cores, ${SMILES.length} LOTUS molecules\nlogs and data: ${TMP}`);
const template = await seedTemplate();
const redis = MODES.includes('distributed') ? await testRedis() : undefined;
const results: ModeResult[] = [];
let cannotStart = false;
try {
  for (const mode of MODES) {
    try {
      results.push(await soakMode(mode, template, redis));
    } catch (e) {
      cannotStart = true;
      console.log(`\n${mode}: FAILED: ${(e as Error).message}`);
    }
  }
} finally {
  await redis?.stop();
}

console.log('\nsummary');
let bad = false;
for (const r of results) {
  const failedShare = r.total ? r.failed / r.total : 1;
  if (failedShare > 0.01 || r.drifted) bad = true;
  console.log(`  ${r.mode}: max ${r.max.toFixed(0)} req/s, soak ${r.target} req/s, ${r.total} requests, ${(failedShare * 100).toFixed(2)} % failed; memory at the end ${r.drifted ? 'GREW beyond' : 'within'} ±${TOLERANCE * 100} % of the end of the warm-up`);
}
process.exit(cannotStart ? 2 : bad ? 1 : 0);
