/**
 * HTTP load on three chemistry routes with autocannon, against the service started as child
 * processes the way it is deployed: `inline` (the api alone, jobs on its own threads, no Redis),
 * `distributed-N` (the api puts jobs in BullMQ queues, N worker processes run them). Requests
 * cycle through the distinct SMILES of the LOTUS demo sample, a different molecule each time, so
 * no layer can answer from a cache. Prints figures; asserts nothing.
 *
 *   npm run bench:http
 *   BENCH_DURATION=5 BENCH_WARMUP=1 npm run bench:http
 *   BENCH_MODES=inline,distributed-2 BENCH_ROUTES=descriptors BENCH_TRIALS=3 BENCH_OUT=out.json npm run bench:http
 *
 * Environment (defaults in brackets):
 *   BENCH_MODES          inline,distributed-1,distributed-2 — any distributed-<N> works, and
 *                        distributed-<N>x<T> gives each of the N worker processes T threads
 *   BENCH_ROUTES         canonical,inchikey,descriptors
 *   BENCH_DURATION [15]  seconds measured per route and trial
 *   BENCH_WARMUP [3]     seconds of load per route before measuring, not counted
 *   BENCH_CONNECTIONS [32], BENCH_TRIALS [1] (several: each is printed, the table shows medians)
 *   BENCH_WORKER_THREADS WORKERS of each worker process [cores / N, at least 1: 2 cores give
 *                        1 process × 2 threads against 2 × 1]; inline keeps the service default
 *   BENCH_REQUESTS [0]   then that many more requests per route: RSS after the first tenth and at the end
 *   BENCH_LOG_LEVEL [info] LOG_LEVEL of the service (its default; request logs are off unless LOG_REQUESTS=true)
 *   BENCH_OUT            write the results as JSON to this file
 *   REDIS_URL            Redis for distributed modes; else 127.0.0.1:6379, else a redis-server
 *                        started here (test/helpers/redis.ts) and stopped at the end
 *
 * autocannon runs in this process, on the same cores as the service: the figures are for the
 * machine as a whole, not for the service alone. For each trial the CPU time every process used
 * is printed per request (api, workers, Redis, and this process, the load generator): on a
 * saturated machine their sum is what one request costs, and it shows where the time goes. RSS
 * is read every half second; each figure is the median of the readings of a run's second half. Each process logs to a file in a temporary
 * directory (printed). Exits non-zero only if the service cannot start in some mode.
 */
import autocannon, { type Result } from 'autocannon';
import { Redis } from 'ioredis';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRedis, type TestRedis } from '../test/helpers/redis.ts';
import { cpuSeconds, dropKeys, freePort, lotusSmiles, realPid, rssMB, running, sleep, startService, stopService, type Service } from './services.ts';

const env = process.env;
const num = (name: string, dflt: number) => (env[name] ? Number(env[name]) : dflt);
const DURATION = num('BENCH_DURATION', 15);
const WARMUP = num('BENCH_WARMUP', 3);
const CONNECTIONS = num('BENCH_CONNECTIONS', 32);
const TRIALS = num('BENCH_TRIALS', 1);
/** Memory over a long run: after the trials, BENCH_REQUESTS more requests per route, RSS after the first tenth and at the end. */
const REQUESTS = num('BENCH_REQUESTS', 0);
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const list = (v: string | undefined, dflt: string) => (v ?? dflt).split(',').map((s) => s.trim()).filter(Boolean);
const CORES = availableParallelism();
const TMP = mkdtempSync(join(tmpdir(), 'natprod-bench-http-'));
const RUN_ID = `natprod-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

// The SMILES goes last, URL-encoded; toolkit=rdkit is the default of descriptors and the only toolkit of the others.
const ROUTES: Record<string, string> = {
  canonical: '/latest/convert/canonicalsmiles?toolkit=rdkit&smiles=',
  inchikey: '/latest/convert/inchikey?toolkit=rdkit&smiles=',
  descriptors: '/latest/chem/descriptors?smiles=',
};

interface Mode { name: string; workers: number; threads: number }
function parseMode(name: string): Mode {
  if (name === 'inline') return { name, workers: 0, threads: CORES }; // the service's own default (WORKERS = cores), shown only
  const [, n, t] = /^distributed-(\d+)(?:x(\d+))?$/.exec(name) ?? [];
  if (!n || Number(n) < 1 || (t !== undefined && Number(t) < 1)) throw new Error(`BENCH_MODES: unknown mode ${name} (inline, distributed-<N> or distributed-<N>x<T>)`);
  return { name, workers: Number(n), threads: t ? Number(t) : num('BENCH_WORKER_THREADS', Math.max(1, Math.floor(CORES / Number(n)))) };
}
const MODES = list(env.BENCH_MODES, 'inline,distributed-1,distributed-2').map(parseMode);
const ROUTE_NAMES = list(env.BENCH_ROUTES, 'canonical,inchikey,descriptors');
for (const r of ROUTE_NAMES) if (!ROUTES[r]) throw new Error(`BENCH_ROUTES: unknown route ${r} (${Object.keys(ROUTES).join(', ')})`);

// --- molecules -----------------------------------------------------------------------------
// Encoded once here so the load generator spends its time sending, not encoding.
const SMILES = (await lotusSmiles()).map(encodeURIComponent);

// --- processes -----------------------------------------------------------------------------
type Proc = Service;
const start = (name: string, script: string, vars: Record<string, string>, port: number): Proc => startService(name, script, { LOG_LEVEL, ...vars }, port, TMP);
const stop = stopService;

async function healthy(p: Proc, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  const health = `${p.base}/health`;
  while (Date.now() < until) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}) before answering /health; see ${p.log}`);
    if (await fetch(health, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) return;
    await sleep(250);
  }
  throw new Error(`${p.name} did not answer ${health} within ${timeoutMs / 1000} s; see ${p.log}`);
}

// --- measurement ---------------------------------------------------------------------------
interface Figures {
  rps: number; p50: number; p99: number; ratio: number; non2xx: number; codes: string; errors: number; timeouts: number; rss: Record<string, number>;
  /** CPU µs per request of each process during the trial. */
  cpu: Record<string, number>;
}
interface Line { mode: string; route: string; trials: Figures[]; median: Figures }

let next = 0; // shared by all connections, so consecutive requests carry different molecules
/**
 * Molecules differ widely in cost (descriptors of a large glycoside take far longer than of a
 * small alkaloid), so every measured run starts the list at `from` = 0: all modes and trials
 * see the same sequence. Warm-ups start half-way, on other molecules.
 */
function load(base: string, route: string, seconds: number, from: number, amount?: number): Promise<Result> {
  next = from;
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(amount ? { amount } : { duration: seconds }),
    // Longer than the service's JOB_TIMEOUT_MS (30 s), so a slow job shows as its 504, not as a client timeout.
    timeout: 40,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: ROUTES[route] + SMILES[next++ % SMILES.length] }) }],
  });
}

/** The processes whose CPU is counted: the service's, Redis (when its pid is known) and this one. */
type CpuPids = [name: string, pid: number][];
const cpuSnapshot = (pids: CpuPids) => pids.map(([, pid]) => cpuSeconds(pid));

interface Trial { r: Result; cpu: Record<string, number>; rss: Record<string, number> }

/**
 * A trial: the load, with each process's CPU time read before and after, and its RSS read every
 * half second. The RSS reported is the median of the readings of the trial's second half: a
 * garbage-collected heap swings by tens of MB between collections, and a single reading at the
 * end lands anywhere on that saw-tooth.
 */
async function measured(pids: CpuPids, procs: Proc[], run: () => Promise<Result>): Promise<Trial> {
  const before = cpuSnapshot(pids);
  const readings: number[][] = [];
  const sampler = setInterval(() => readings.push(procs.map((p) => rssMB(p))), 500);
  let r: Result;
  try {
    r = await run();
  } finally {
    clearInterval(sampler);
  }
  const after = cpuSnapshot(pids);
  const n = Math.max(1, r.requests.total);
  const late = readings.slice(readings.length >> 1);
  if (late.length === 0) late.push(procs.map((p) => rssMB(p)));
  const rss = Object.fromEntries(procs.map((p, i) => [p.name.replace(/^[^:]+:/, ''), Math.round(median(late.map((x) => x[i])))]));
  return { r, rss, cpu: Object.fromEntries(pids.map(([name], i) => [name, Math.round(((after[i] - before[i]) * 1e6) / n)])) };
}

function figures({ r, cpu, rss }: Trial): Figures {
  const codes = Object.entries(r.statusCodeStats).filter(([c]) => !c.startsWith('2')).map(([c, s]) => `${c}×${s.count}`).join(' ');
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ratio: r.latency.p99 / r.latency.p50, non2xx: r.non2xx, codes, errors: r.errors, timeouts: r.timeouts, rss, cpu };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
function medianOf(fs: Figures[]): Figures {
  if (fs.length === 1) return fs[0];
  const m = (k: 'rps' | 'p50' | 'p99' | 'non2xx' | 'errors' | 'timeouts') => median(fs.map((f) => f[k]));
  const cpu = Object.fromEntries(Object.keys(fs[0].cpu).map((k) => [k, median(fs.map((f) => f.cpu[k]))]));
  return { rps: m('rps'), p50: m('p50'), p99: m('p99'), ratio: m('p99') / m('p50'), non2xx: m('non2xx'), codes: '', errors: m('errors'), timeouts: m('timeouts'), rss: fs.at(-1)!.rss, cpu };
}

const f1 = (x: number, w: number) => x.toFixed(1).padStart(w);
const rssText = (rss: Record<string, number>) => Object.entries(rss).map(([k, v]) => `${k} ${v}`).join(', ') + ' MB';
const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu).map(([k, v]) => `${k} ${v}`).join(', ') + ` = ${Object.values(cpu).reduce((a, b) => a + b, 0)} µs`;
const lineText = (mode: string, route: string, f: Figures, tag = '') =>
  `${(mode + tag).padEnd(21)} ${route.padEnd(11)} ${f1(f.rps, 8)} req/s  p50 ${f1(f.p50, 7)} ms  p99 ${f1(f.p99, 7)} ms  p99/p50 ${f.ratio.toFixed(2).padStart(5)}  ` +
  `non-2xx ${f.non2xx}${f.codes ? ` (${f.codes})` : ''}  errors ${f.errors} (timeouts ${f.timeouts})  rss ${rssText(f.rss)}  cpu/req ${cpuText(f.cpu)}`;

async function measureMode(mode: Mode, redis: TestRedis | undefined): Promise<Line[]> {
  const dataDir = join(TMP, mode.name, 'data');
  mkdirSync(dataDir, { recursive: true });
  // A prefix per run and mode: jobs left in Redis by other runs, or by the previous mode, are never taken.
  const prefix = `${RUN_ID}-${mode.name}`;
  const shared: Record<string, string> = { DATA_DIR: dataDir };
  if (mode.workers) {
    if (!redis) throw new Error('no Redis (REDIS_URL, 127.0.0.1:6379 or a redis-server binary)');
    Object.assign(shared, { REDIS_URL: redis.url, QUEUE_PREFIX: prefix });
  }
  const procs: Proc[] = [];
  try {
    const apiPort = await freePort();
    procs.push(start(`${mode.name}:api`, 'api/server.ts', { ...shared, PORT: String(apiPort) }, apiPort));
    for (let i = 1; i <= mode.workers; i++) {
      const port = await freePort();
      procs.push(start(`${mode.name}:worker${i}`, 'workers/main.ts', { ...shared, WORKERS: String(mode.threads), WORKER_METRICS_PORT: String(port) }, port));
    }
    await Promise.all(procs.map((p) => healthy(p)));
    console.log(`\n${mode.name}: ` + (mode.workers
      ? `api + ${mode.workers} worker process(es) × ${mode.threads} thread(s), Redis ${redis!.url}, QUEUE_PREFIX ${prefix}`
      : `api alone, default WORKERS (${mode.threads} thread(s) on ${CORES} cores), no Redis`));
    for (const p of procs) console.log(`  ${p.name.padEnd(24)} pid ${realPid(p.child.pid!, p.script)}  log ${p.log}`);
    const base = `http://127.0.0.1:${apiPort}`;
    const pids: CpuPids = procs.map((p) => [p.name.replace(/^[^:]+:/, ''), realPid(p.child.pid!, p.script)]);
    if (mode.workers && redisPid) pids.push(['redis', redisPid]);
    pids.push(['loadgen', process.pid]);
    const lines: Line[] = [];
    for (const route of ROUTE_NAMES) {
      if (WARMUP > 0) await load(base, route, WARMUP, SMILES.length >> 1);
      const trials: Figures[] = [];
      for (let t = 1; t <= TRIALS; t++) {
        await sleep(500); // let the jobs of requests cut off at the end of the last run drain
        trials.push(figures(await measured(pids, procs, () => load(base, route, DURATION, 0))));
        console.log(lineText(mode.name, route, trials.at(-1)!, TRIALS > 1 ? ` #${t}` : ''));
      }
      if (REQUESTS > 0) {
        const first = figures(await measured(pids, procs, () => load(base, route, 0, 0, Math.round(REQUESTS / 10))));
        const rest = figures(await measured(pids, procs, () => load(base, route, 0, 0, REQUESTS - Math.round(REQUESTS / 10))));
        console.log(`${mode.name.padEnd(21)} ${route.padEnd(11)} ${REQUESTS.toLocaleString()} requests: rss after the first tenth ${rssText(first.rss)}; at the end ${rssText(rest.rss)}; non-2xx ${first.non2xx + rest.non2xx}`);
      }
      const line = { mode: mode.name, route, trials, median: medianOf(trials) };
      if (TRIALS > 1) console.log(lineText(mode.name, route, line.median, ' median'));
      lines.push(line);
    }
    return lines;
  } finally {
    await Promise.all(procs.map((p) => stop(p)));
    if (mode.workers && redis) await dropKeys(redis.url, prefix);
  }
}

async function redisProcessId(url: string): Promise<number | undefined> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    const pid = Number(/process_id:(\d+)/.exec(await r.info('server'))?.[1]);
    return /^redis:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url) && Number.isFinite(cpuSeconds(pid)) ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    r.disconnect();
  }
}

// --- main ----------------------------------------------------------------------------------
process.on('SIGINT', () => void Promise.all([...running].map((p) => stop(p, 3000))).then(() => process.exit(130)));

console.log(
  `natprod HTTP benchmark: ${SMILES.length} distinct LOTUS SMILES, ${CONNECTIONS} connections, warm-up ${WARMUP} s, ` +
    `${TRIALS} × ${DURATION} s per route, ${CORES} cores, service LOG_LEVEL ${LOG_LEVEL}\nlogs and data: ${TMP}`,
);
const redis = MODES.some((m) => m.workers) ? await testRedis() : undefined;
/** Redis's pid from INFO, when it runs on this machine (its CPU is then counted). */
const redisPid = redis ? await redisProcessId(redis.url) : undefined;
const results: Line[] = [];
const failed: string[] = [];
try {
  for (const mode of MODES) {
    try {
      results.push(...(await measureMode(mode, redis)));
    } catch (e) {
      failed.push(mode.name);
      console.log(`\n${mode.name}: CANNOT START: ${(e as Error).message}`);
    }
  }
} finally {
  await redis?.stop();
}

console.log(`\n${'mode'.padEnd(16)} ${'route'.padEnd(11)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'p99/p50'.padStart(7)} ${'non2xx'.padStart(7)} ${'errors'.padStart(7)} ${'t/o'.padStart(5)}  rss MB; cpu µs per request`);
for (const { mode, route, median: f } of results) {
  console.log(
    `${mode.padEnd(16)} ${route.padEnd(11)} ${f1(f.rps, 8)} ${f1(f.p50, 8)} ${f1(f.p99, 8)} ${f.ratio.toFixed(2).padStart(7)} ${String(f.non2xx).padStart(7)} ` +
      `${String(f.errors).padStart(7)} ${String(f.timeouts).padStart(5)}  ${Object.values(f.rss).join(' / ')}; ${cpuText(f.cpu)}`,
  );
}
if (TRIALS > 1) console.log(`(medians of ${TRIALS} trials; rss of the last)`);
console.log('rss: median of the readings (every 0.5 s) in the second half of the trial');
console.log('cpu: µs of CPU per request in each process during the trial; loadgen is autocannon, in this process');
for (const m of failed) console.log(`${m.padEnd(14)} did not start`);
if (env.BENCH_OUT) {
  const config = { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, trials: TRIALS, cores: CORES, molecules: SMILES.length, modes: MODES, logLevel: LOG_LEVEL };
  writeFileSync(env.BENCH_OUT, JSON.stringify({ config, results, failed }, null, 2));
  console.log(`results written to ${env.BENCH_OUT}`);
}
process.exit(failed.length ? 1 : 0);
