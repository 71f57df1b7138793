// The capacity model: what each component of the distributed mode spends per request, measured,
// and the throughput it predicts for A api processes x W worker processes x T threads on C cores.
//
// Per request (core-seconds), from one measured row of scale.tsv (a distributed configuration):
//   apiMain    the api processes' main threads (HTTP, validation, batching, BullMQ producer)
//   apiOther   the api processes' other threads (libuv, GC helpers)
//   workerMain the worker processes' main threads (BullMQ consumer, hand-over to the threads)
//   thread     the worker processes' chemistry threads (RDKit)
//   redis      the Redis server (single-threaded)
//   loader     everything else the host spent (the load generator, wrk, on the same machine)
// Ceilings, each a separate resource (a main thread and Redis use at most one core each):
//   apis     A / apiMain         workerMains  W / workerMain       threads  W*T / thread
//   redis    1 / redis           cores        C / (sum of all, loader included)
// The predicted maximum is the smallest ceiling; its name says what saturates first.
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

/** Ceilings (req/s) of a configuration; mode 'inline' has one api whose threads do the chemistry. */
export function predict(c, { mode = 'dist', apis = 1, workers = 1, threads = 1, cores }) {
  const chem = mode === 'inline' ? threads : workers * threads;
  const lim = {
    apis: apis / c.apiMain,
    threads: chem / c.thread,
    cores: cores / (c.apiMain + c.apiOther + c.workerMain + c.thread + c.redis + c.loader),
  };
  if (mode !== 'inline') {
    lim.workerMains = workers / Math.max(c.workerMain, 1e-9);
    lim.redis = 1 / Math.max(c.redis, 1e-9);
  }
  let first = 'cores';
  for (const k of Object.keys(lim)) if (lim[k] < lim[first]) first = k;
  return { rps: lim[first], first, lim };
}

export const us = (s) => (s * 1e6).toFixed(0);
