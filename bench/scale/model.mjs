// The capacity model: what each component of the distributed mode spends per request, measured,
// and the throughput it predicts for A api processes x W worker processes x T threads on C cores.
//
// Per request (core-seconds), from one measured row of scale.tsv (a distributed configuration):
//   apiMain    the api processes' main threads (HTTP, validation, batching, BullMQ producer)
//   apiOther   the api processes' other threads (libuv, GC helpers)
//   workerMain the worker processes' main threads (BullMQ consumer, hand-over to the threads)
//   thread     the worker processes' chemistry threads (RDKit); from scale.tsv also their GC and
//              libuv threads (scale.sh does not split them; bench/capacity.mjs does: workerOther)
//   redis      the Redis server (single-threaded)
//   loader     everything else the host spent (the load generator, wrk, on the same machine)
//
// Two models:
//
// 1. predict(): CPU ceilings only, each a separate resource (a main thread and Redis use at most
//    one core each), costs taken from one configuration:
//      apis     A / apiMain         workerMains  W / workerMain       threads  W*T / thread
//      redis    1 / redis           cores        C / (sum of all, loader included)
//    The predicted maximum is the smallest ceiling; its name says what saturates first. Costs from
//    the 1x1x1 configuration, it predicted the 16-core release run with errors of -8..+70 %
//    (bench/scale/results/*-release.txt): it misses two things the measurements show.
//
// 2. fit() + predict2(): fitted on small configurations only (one api, at most 4 chemistry threads,
//    at most a quarter of 16 cores), the same ceilings plus the two effects:
//    - the closed loop: wrk keeps N connections (scale.sh: N = 8 x chemistry threads), and a batch of
//      quick calls makes a round trip outside its thread (api -> Redis -> worker main -> thread and
//      back, the answers, wrk's next requests, the next batch) of `gap` seconds during which the
//      thread waits for work. With N calls over chem threads, a thread runs N/chem calls per cycle
//      of N/chem * thread + gap, so  cycle = N / (N * thread / chem + gap)  (req/s). gap is fitted
//      on the small configurations (N/X - N*thread/chem, averaged); ~3 ms for canonical SMILES on
//      the 16-core host, so with 8 calls per thread a thread is busy only ~65 % of the time: there the
//      measured maximum is a concurrency limit of the benchmark, not a CPU limit.
//    - contention: CPU time per request grows with how busy the host is (shared cores, SMT,
//      frequency; on the 16-core host descriptors' thread cost rose from 3.1 to 4.2 ms per request
//      between 8 % and 80 % host busy). thread(h) = thread0 * (1 + kappa * h), h the host's busy
//      fraction at the predicted point (solved by iteration), kappa fitted on the small configurations.
//    - the worker main thread's cost per request grows with the number of worker processes (every
//      idle worker is woken for every batch and races for it): workerMain(W) = wm1 + wmSlope*(W-1).
//    Not modelled (the data of one api cannot fit it): up to 5f32a44 each api read every batch's
//    completion event (BullMQ QueueEvents), so the api main thread and Redis cost per request grew
//    with the number of apis (16 cores: api main 131 us at 1 api, 180 at 2, 216 at 3, 269 at 4) and
//    the model over-predicted configurations with many apis (+16 % at 4 apis x 10 workers). Since
//    then each api hears only its own batches' replies (docs/architecture.md).
export function costs(row) {
  const rps = Number(row.rps);
  const pc = (k) => Number(row[k] ?? 0) / 100 / rps;
  const api = pc('api_cpu_pct'), apiMain = pc('api_main_pct');
  const workers = pc('workers_cpu_pct'), workerMain = pc('workers_main_pct');
  const redis = pc('redis_cpu_pct');
  const host = (Number(row.host_busy_pct) / 100) * Number(row.cores) / rps;
  const thread = row.mode === 'inline' ? api - apiMain : workers - workerMain;
  const c = {
    apiMain,
    apiOther: row.mode === 'inline' ? 0 : api - apiMain,
    workerMain: row.mode === 'inline' ? 0 : workerMain,
    thread: Math.max(thread, 1e-9),
    redis,
  };
  const server = c.apiMain + c.apiOther + c.workerMain + c.thread + c.redis;
  c.loader = Math.max(0, host - server);
  return c;
}

const total = (c) => c.apiMain + c.apiOther + c.workerMain + c.thread + (c.workerOther ?? 0) + c.redis + (c.loader ?? 0);

/** Ceilings (req/s) of a configuration; mode 'inline' has one api whose threads do the chemistry. */
export function predict(c, { mode = 'dist', apis = 1, workers = 1, threads = 1, cores }) {
  const chem = mode === 'inline' ? threads : workers * threads;
  const lim = {
    apis: apis / c.apiMain,
    threads: chem / c.thread,
    cores: cores / total(c),
  };
  if (mode !== 'inline') {
    lim.workerMains = workers / Math.max(c.workerMain, 1e-9);
    lim.redis = 1 / Math.max(c.redis, 1e-9);
  }
  return smallest(lim);
}

function smallest(lim) {
  let first = Object.keys(lim)[0];
  for (const k of Object.keys(lim)) if (lim[k] < lim[first]) first = k;
  return { rps: lim[first], first, lim };
}

/** The rows model 2 is fitted on: distributed, one api, at most 4 chemistry threads. */
export const isSmall = (r) => r.mode === 'dist' && Number(r.api_procs) === 1 && Number(r.chem_threads) <= 4;

/**
 * Model 2's parameters for one route, from its small rows (scale.tsv rows, at least one). With one
 * row: no contention and no growth with workers (kappa = wmSlope = 0).
 */
export function fit(rows) {
  const pts = rows.map((r) => ({ c: costs(r), W: Number(r.worker_procs), h: Number(r.host_busy_pct) / 100, N: Number(r.conns), X: Number(r.rps), chem: Number(r.chem_threads) }))
    .sort((a, b) => a.chem - b.chem || a.W - b.W);
  const a = pts[0], b = pts[pts.length - 1];
  const mean = (f) => pts.reduce((s, p) => s + f(p), 0) / pts.length;
  // thread(h) = thread0 (1 + kappa h) through the least and the most loaded small configuration
  const q = b.c.thread / a.c.thread;
  const kappa = b.h > a.h + 0.05 ? Math.max(0, (q - 1) / (b.h - a.h * q)) : 0;
  const wmSlope = b.W > a.W ? Math.max(0, (b.c.workerMain - a.c.workerMain) / (b.W - a.W)) : 0;
  return {
    fittedOn: rows.map((r) => `${r.api_procs}x${r.worker_procs}x${r.threads_per_proc}`),
    thread0: a.c.thread / (1 + kappa * a.h),
    kappa,
    wm1: a.c.workerMain - wmSlope * (a.W - 1),
    wmSlope,
    apiMain: mean((p) => p.c.apiMain),
    apiOther: mean((p) => p.c.apiOther),
    redis: mean((p) => p.c.redis),
    loader: mean((p) => p.c.loader),
    gap: Math.max(0, mean((p) => p.N / p.X - (p.N * p.c.thread) / p.chem)),
  };
}

/**
 * Model 2's prediction for A apis x W workers x T threads on C cores under a closed loop of `conns`
 * connections (omit conns for an open load: no cycle ceiling, only the CPU ceilings).
 */
export function predict2(m, { apis = 1, workers = 1, threads = 1, cores, conns }) {
  const chem = workers * threads;
  let h = 0.5, out;
  for (let i = 0; i < 60; i++) {
    const c = { apiMain: m.apiMain, apiOther: m.apiOther, workerMain: m.wm1 + m.wmSlope * (workers - 1), thread: m.thread0 * (1 + m.kappa * h), redis: m.redis, loader: m.loader };
    const lim = {
      threads: chem / c.thread,
      apis: apis / c.apiMain,
      workerMains: workers / c.workerMain,
      redis: 1 / c.redis,
      cores: cores / total(c),
    };
    if (conns) lim.cycle = conns / ((conns * c.thread) / chem + m.gap);
    out = { ...smallest(lim), costs: c };
    h = 0.5 * h + 0.5 * Math.min(1, (out.rps * total(c)) / cores);
  }
  return { ...out, hostBusy: h };
}

/**
 * Sizing rule: the smallest deployment whose every resource stays at most `busy` (0.7: 30 %
 * headroom) at `rps`: chemistry threads W*T >= rps*thread/busy, apis A >= rps*apiMain/busy,
 * worker main threads W >= rps*workerMain/busy, cores C >= rps*(all CPU per request)/busy, and
 * Redis (one core at most) rps*redis <= busy, else there is no deployment with one Redis.
 * T: threads per worker, at most maxThreads (worker processes of up to 4 threads keep the worker
 * main thread, ~1/3 of a thread's cost on quick calls, from becoming the limit).
 */
export function sizing(c, rps, { busy = 0.7, maxThreads = 4 } = {}) {
  const need = (x) => Math.max(1, Math.ceil((rps * x) / busy - 1e-9));
  const chem = need(c.thread);
  const apis = need(c.apiMain);
  const redisBusy = rps * c.redis;
  let best;
  for (let t = 1; t <= maxThreads; t++) {
    const w = Math.max(Math.ceil(chem / t), need(c.workerMain));
    const cand = { apis, workers: w, threads: t };
    if (!best || w * t + w + apis < best.workers * best.threads + best.workers + best.apis) best = cand;
  }
  const cores = need(total(c));
  return { ...best, cores, redisBusy, ok: redisBusy <= busy, predicted: predict(c, { ...best, cores }) };
}

export const RULE = 'every resource at most 70 % busy at the target rate (30 % headroom): ' +
  'threads = ceil(rate x thread cost / 0.7), apis = ceil(rate x api main cost / 0.7), workers = ceil(threads / T) ' +
  '(and enough that each worker main thread stays under 0.7), cores = ceil(rate x all CPU per request / 0.7); ' +
  'one Redis must stay under 0.7 of a core';

export const us = (s) => (s * 1e6).toFixed(0);
