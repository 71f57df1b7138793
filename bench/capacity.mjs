// Capacity of the distributed mode, per route: the CPU each component spends per request,
// measured at saturation on this machine, and what bench/scale/model.mjs then predicts for
// A apis x W workers x T threads on C cores, with a sizing table (docs/operations.md, "Sizing").
//
//   node bench/capacity.mjs [--routes canonical,inchikey,descriptors,similarity,generate]
//        [--dur 10] [--warm 3] [--conns 64,16,2] [--jobs 40] [--formula C7H8O2] [--threads 1]
//
// It starts, as bench/scale/scale.sh does: a private redis-server (port BASE_PORT+90, no
// persistence), one worker process of --threads chemistry threads and one api process
// (SEED_DEMO=true: the demo catalog, so that the structure search has something to find; the run
// waits until a similarity search answers with hits), all from the built dist/ of APP (default:
// this checkout, rebuilt when stale). Then per route:
//   quick routes (canonical, inchikey, descriptors: GET; similarity: POST /api/search): wrk at each
//     of --conns connections (default 64, 16, 2), --warm s of warm-up then --dur s measured, every
//     request a different LOTUS molecule (bench/scale/make-paths.mjs, bench/scale/paths.lua). The
//     first (64: saturation, the batcher carries ~32 calls per BullMQ job) gives the per-thread
//     ceilings and the predicted maxima; 16 (scale.sh's load for one thread: ~8-16 calls per job,
//     higher costs per call) gives the sizing table, to be on the safe side; 2 is light load
//     (a call per job: the costs per call are highest). The costs per call fall with the batch size.
//   generate (a long job): --jobs GET /latest/tools/generate-structures?molecular_formula=<formula>,
//     202 + job id, each polled every 100 ms until it succeeded, 2 x threads jobs in flight;
//     CPU per job over all of them.
// CPU is read from /proc per thread: api main thread, api other threads, worker main thread, the
// worker's chemistry threads (its T busiest other threads), the worker's remaining threads, Redis,
// and the load generator (wrk, or this driver), over the measured window.
// Env: APP=<checkout with dist/>, REDIS_SERVER=redis-server, WRK=wrk, BASE_PORT=18600, OUT=<dir>
//   (default /tmp/natprod-capacity: costs.json, capacity.txt, logs/).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync, openSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { us } from './scale/model.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(HERE, '..');
const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((s) => { const [k, v = '1'] = s.trim().split(/\s+/); return [k, v]; }));
const opt = {
  routes: (args.routes ?? 'canonical,inchikey,descriptors,similarity,generate').split(','),
  dur: Number(args.dur ?? 10), warm: Number(args.warm ?? 3), conns: String(args.conns ?? '64,16,2').split(',').map(Number), jobs: Number(args.jobs ?? 40), formula: args.formula ?? 'C7H8O2',
  threads: Number(args.threads ?? 1),
};
const APP = process.env.APP ?? REPO;
const OUT = process.env.OUT ?? '/tmp/natprod-capacity';
const BASE = Number(process.env.BASE_PORT ?? 18600);
const REDIS_PORT = BASE + 90, API_PORT = BASE + 1, WM_PORT = BASE + 101;
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
const CORES = cpus().length;
const LOGS = join(OUT, 'logs');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(LOGS, { recursive: true });
const DATA = join(OUT, 'data');
mkdirSync(join(DATA, 'api'), { recursive: true });
const t0 = Date.now();
const say = (s) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${s}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ processes (ours only, by pid)
const procs = [];
function start(name, cmd, argv, env) {
  const log = openSync(join(LOGS, `${name}.log`), 'w');
  const p = spawn(cmd, argv, { cwd: APP, env, stdio: ['ignore', log, log] });
  procs.push(p);
  p.on('exit', (code, signal) => { if (!stopping) say(`WARNING: ${name} (pid ${p.pid}) exited during the run: code ${code}, signal ${signal}; see ${join(LOGS, `${name}.log`)}`); });
  return p;
}
let stopping = false;
async function stopAll() {
  stopping = true;
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  for (let i = 0; i < 20 && procs.some((p) => p.exitCode === null && p.signalCode === null); i++) await sleep(100);
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}
process.on('SIGINT', () => stopAll().then(() => process.exit(130)));
process.on('SIGTERM', () => stopAll().then(() => process.exit(143)));

// ------------------------------------------------------------------ /proc
function statFields(file) {
  try {
    const line = readFileSync(file, 'utf8');
    return line.slice(line.lastIndexOf(')') + 2).split(' ');
  } catch { return null; }
}
/** utime+stime ticks of every thread of a process: Map tid -> ticks */
function threadTicks(pid) {
  const m = new Map();
  let tids = [];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { return m; }
  for (const t of tids) {
    const f = statFields(`/proc/${pid}/task/${t}/stat`);
    if (f) m.set(Number(t), Number(f[11]) + Number(f[12]));
  }
  return m;
}
/** ticks of the children this process has waited for (wrk): cutime + cstime */
const childTicks = () => { const f = statFields('/proc/self/stat'); return Number(f[13]) + Number(f[14]); };
const hostTicks = () => {
  const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [u, n, s, idle, w, irq, sirq, st] = v;
  return { busy: u + n + s + irq + sirq + st, total: u + n + s + idle + w + irq + sirq + st };
};
function snapshot(P) {
  return { at: process.hrtime.bigint(), api: threadTicks(P.api.pid), worker: threadTicks(P.worker.pid), redis: threadTicks(P.redis.pid), child: childTicks(), self: process.cpuUsage(), host: hostTicks() };
}
/** Core-seconds spent per component between two snapshots. */
function spent(a, b, P, threads) {
  const delta = (m0, m1) => { const d = new Map(); for (const [t, v] of m1) d.set(t, (v - (m0.get(t) ?? 0)) / HZ); return d; };
  const api = delta(a.api, b.api), wk = delta(a.worker, b.worker), rd = delta(a.redis, b.redis);
  const sum = (d) => [...d.values()].reduce((x, y) => x + y, 0);
  const apiMain = api.get(P.api.pid) ?? 0;
  const wMain = wk.get(P.worker.pid) ?? 0;
  const others = [...wk].filter(([t]) => t !== P.worker.pid).map(([, v]) => v).sort((x, y) => y - x);
  const chem = others.slice(0, threads);
  const selfCpu = (b.self.user + b.self.system - a.self.user - a.self.system) / 1e6;
  return {
    wall: Number(b.at - a.at) / 1e9,
    apiMain, apiOther: sum(api) - apiMain, workerMain: wMain,
    thread: chem.reduce((x, y) => x + y, 0), threadMax: Math.max(0, ...chem), workerOther: others.slice(threads).reduce((x, y) => x + y, 0),
    redis: sum(rd), loader: (b.child - a.child) / HZ + selfCpu,
    host: ((b.host.busy - a.host.busy) / Math.max(1, b.host.total - a.host.total)) * CORES * (Number(b.at - a.at) / 1e9),
  };
}

// ------------------------------------------------------------------ http helpers
async function http(method, path, body, timeout = 30_000) {
  const r = await fetch(`http://127.0.0.1:${API_PORT}${path}`, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeout),
  });
  const text = await r.text();
  let json; try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, json };
}
async function waitUntil(what, maxS, fn) {
  const end = Date.now() + maxS * 1000;
  let last = '';
  while (Date.now() < end) {
    try { const v = await fn(); if (v === true) return; last = String(v); } catch (e) { last = e.cause?.code ?? e.message; }
    await sleep(250);
  }
  throw new Error(`${what} not ready after ${maxS}s: ${last.slice(0, 300)}`);
}

// ------------------------------------------------------------------ measurements
function wrk(route, conns, secs) {
  return new Promise((resolve) => {
    const env = { ...process.env, PATHS: join(OUT, `paths-${route}.txt`), ERRFILE: join(OUT, `err-${route}`) };
    const p = spawn(process.env.WRK ?? 'wrk', ['-t1', `-c${conns}`, `-d${secs}s`, '--timeout', '10s', '-s', join(HERE, 'scale/paths.lua'), `http://127.0.0.1:${API_PORT}`], { env });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT'));
      if (!line) { say(`wrk gave no result: ${out}`); return resolve(null); }
      resolve(Object.fromEntries(line.slice(7).trim().split(' ').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)])));
    });
  });
}

let firstQuick = true;
async function quick(P, route, conns) {
  // the first measurement warms the processes up (JIT, pools, connections) for longer
  const warm = firstQuick ? Math.max(opt.warm, 8) : opt.warm;
  firstQuick = false;
  if (warm > 0) await wrk(route, conns, warm);
  const a = snapshot(P);
  const r = await wrk(route, conns, opt.dur);
  const b = snapshot(P);
  if (!r) return null;
  return { route, conns, rps: r.rps, requests: r.requests, p50: r.p50_ms, p99: r.p99_ms, bad: r.non2xx + r.connect_err + r.read_err + r.write_err + r.timeouts, cpu: spent(a, b, P, opt.threads) };
}

async function longJobs(P) {
  const q = `/latest/tools/generate-structures?molecular_formula=${encodeURIComponent(opt.formula)}&max_heavy_atoms=14`;
  const one = async () => {
    const t = Date.now();
    const s = await http('GET', q);
    if (s.status !== 202) throw new Error(`generate-structures answered ${s.status}: ${JSON.stringify(s.json).slice(0, 300)}`);
    const id = s.json.job_id;
    for (;;) {
      await sleep(100);
      const g = await http('GET', `/latest/jobs/${id}`);
      if (g.json.status === 'succeeded') return { ms: Date.now() - t, n: g.json.result?.total_count };
      if (g.json.status === 'failed' || g.json.status === 'cancelled') throw new Error(`job ${id} ${g.json.status}: ${JSON.stringify(g.json.error)}`);
    }
  };
  const first = await one(); // warm-up, and the size of one job
  say(`generate-structures ${opt.formula}: ${first.n} structures, ${first.ms} ms alone`);
  const inflight = 2 * opt.threads;
  let next = 0;
  const times = [];
  const a = snapshot(P);
  await Promise.all(Array.from({ length: inflight }, async () => { while (next++ < opt.jobs) times.push((await one()).ms); }));
  const b = snapshot(P);
  times.sort((x, y) => x - y);
  const cpu = spent(a, b, P, opt.threads);
  return { route: 'generate', conns: inflight, rps: opt.jobs / cpu.wall, requests: opt.jobs, p50: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], bad: 0, cpu };
}

/** Costs per request (core-seconds) in model.mjs's shape. */
function perRequest(m) {
  const n = m.rps * m.cpu.wall;
  const c = {};
  for (const k of ['apiMain', 'apiOther', 'workerMain', 'thread', 'workerOther', 'redis', 'loader']) c[k] = m.cpu[k] / n;
  c.thread = Math.max(c.thread, 1e-9);
  return c;
}

// ------------------------------------------------------------------ run
const stamp = new Date().toISOString();
say(`natprod capacity, ${CORES} cores, app ${APP}, node ${process.version}; ${JSON.stringify(opt)}`);
execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: APP, stdio: 'inherit' });
execFileSync(process.execPath, [join(HERE, 'scale/make-paths.mjs'), '2000', OUT], { stdio: 'inherit' });
const base = {
  HOME: process.env.HOME ?? '/tmp', PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', OPSIN_JAR: 'off', LOG_LEVEL: 'warn',
  RATE_LIMIT_QUICK: '0', RATE_LIMIT_LONG: '0', RATE_LIMIT_WRITES: '0', LONG_JOBS_PER_CLIENT: '0', SHUTDOWN_GRACE_MS: '1000',
  REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`, QUEUE_PREFIX: 'capacity',
};
const P = {};
let results = [];
try {
  P.redis = start('redis', process.env.REDIS_SERVER ?? 'redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', '--dir', DATA]);
  await sleep(300);
  P.worker = start('worker', process.execPath, ['dist/worker.mjs'], { ...base, DATA_DIR: DATA, WORKERS: String(opt.threads), WORKER_METRICS_PORT: String(WM_PORT), SEED_DEMO: 'false' });
  await waitUntil('worker', 120, async () => (await fetch(`http://127.0.0.1:${WM_PORT}/health`)).status === 200);
  P.api = start('api', process.execPath, ['dist/server.mjs'], { ...base, DATA_DIR: join(DATA, 'api'), PORT: String(API_PORT), SEED_DEMO: 'true' });
  await waitUntil('api', 180, async () => (await http('GET', '/health')).status === 200);
  await waitUntil('chemistry', 60, async () => (await http('GET', '/latest/convert/canonicalsmiles?smiles=OC(%3DO)c1ccccc1O&toolkit=rdkit')).status === 200);
  if (opt.routes.includes('similarity')) {
    // the demo catalog seeded and its fingerprints in the workers' index: a search finds itself
    const probe = readFileSync(join(OUT, 'paths-similarity.txt'), 'utf8').split('\n')[0].replace(/^POST \S+ /, '');
    await waitUntil('structure search (demo catalog)', 300, async () => {
      const r = await http('POST', '/api/search', JSON.parse(probe));
      const hits = r.json.data?.data ?? r.json.data;
      return r.status === 200 && Array.isArray(hits) && hits.length > 0 ? true : `${r.status} ${JSON.stringify(r.json).slice(0, 200)}`;
    });
  }
  // the api's start-up work on the workers (the demo catalog's derivations, the fingerprint
  // backfill) must be over before anything is measured: wait until api + worker are quiet
  const quietSince = Date.now();
  await waitUntil('quiet (start-up work done)', 900, async () => {
    const a = snapshot(P); await sleep(2000); const b = snapshot(P); const c = spent(a, b, P, opt.threads);
    const busy = (c.apiMain + c.apiOther + c.workerMain + c.thread + c.workerOther) / c.wall;
    return busy < 0.1 ? true : `${(busy * 100).toFixed(0)}% of a core busy`;
  });
  say(`quiet after ${((Date.now() - quietSince) / 1000).toFixed(0)} s`);
  say(`ready: api ${P.api.pid}, worker ${P.worker.pid} (${opt.threads} thread(s)), redis ${P.redis.pid}`);
  for (const route of opt.routes) {
    const runs = [];
    if (route === 'generate') runs.push(await longJobs(P));
    else for (const c of opt.conns) runs.push(await quick(P, route, c));
    for (const m of runs) {
      if (!m) continue;
      m.costs = perRequest(m);
      results.push(m);
      const c = m.costs, u = m.cpu;
      say(`${route.padEnd(11)} c=${String(m.conns).padEnd(3)} ${m.rps.toFixed(1)} req/s p50 ${m.p50} ms p99 ${m.p99} ms bad ${m.bad} | us/req: apiMain ${us(c.apiMain)} apiOther ${us(c.apiOther)} workerMain ${us(c.workerMain)} thread ${us(c.thread)} workerOther ${us(c.workerOther)} redis ${us(c.redis)} loader ${us(c.loader)} | busy: apiMain ${(100 * u.apiMain / u.wall).toFixed(0)}% workerMain ${(100 * u.workerMain / u.wall).toFixed(0)}% thread ${(100 * u.threadMax / u.wall).toFixed(0)}% redis ${(100 * u.redis / u.wall).toFixed(0)}% host ${(100 * u.host / u.wall / CORES).toFixed(0)}%`);
    }
  }
} catch (e) {
  say(`ERROR: ${e.message}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
writeFileSync(join(OUT, 'costs.json'), JSON.stringify({ stamp, cores: CORES, node: process.version, opt, results }, null, 1));
if (results.length) {
  const { report } = await import('./capacity-report.mjs');
  const text = report({ stamp, cores: CORES, node: process.version, opt, results });
  writeFileSync(join(OUT, 'capacity.txt'), text);
  console.log('\n' + text);
}
say(`done; ${join(OUT, 'costs.json')}, ${join(OUT, 'capacity.txt')}, logs in ${LOGS}`);
