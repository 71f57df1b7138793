// The tables of bench/capacity.mjs, from its results (also: node bench/capacity-report.mjs <costs.json>).
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { predict, sizing, us, RULE } from './scale/model.mjs';

const pad = (s, w, left = false) => (left ? String(s).padEnd(w) : String(s).padStart(w));
const TARGETS = { canonical: [1000, 5000, 10000], inchikey: [1000, 5000, 10000], descriptors: [1000, 5000, 10000], similarity: [1000, 5000, 10000], generate: [1, 10, 50] };
const CONFIGS = [[1, 1, 1, 2], [1, 2, 1, 4], [1, 4, 1, 8], [2, 8, 1, 16], [2, 4, 4, 32], [4, 16, 2, 64]];

export function report({ stamp, cores, node, opt, results, cpu = cpus()[0]?.model }) {
  const L = [];
  L.push(`natprod capacity (bench/capacity.mjs), ${stamp}, ${cores} cores (${cpu}), node ${node}`);
  L.push(`distributed mode: 1 api, 1 worker of ${opt.threads} thread(s), a private Redis; wrk -t1 on the same machine; ${opt.dur} s per point after ${opt.warm} s of warm-up`);
  L.push('');
  L.push('CPU per request (us) by component, at each load (connections); busy = % of one core (thread: the busiest chemistry thread)');
  L.push(['route      ', 'conns', '  req/s', 'p50ms', 'p99ms', 'apiMain', 'apiOther', 'wrkMain', 'thread', 'wrkOther', 'redis', 'loader', 'thread busy', 'apiMain busy'].join(' '));
  for (const m of results) {
    const c = m.costs, u = m.cpu;
    L.push([pad(m.route, 11, true), pad(m.conns, 5), pad(m.rps.toFixed(m.route === 'generate' ? 2 : 0), 7), pad(Number(m.p50).toFixed(1), 5), pad(Number(m.p99).toFixed(1), 5),
      pad(us(c.apiMain), 7), pad(us(c.apiOther), 8), pad(us(c.workerMain), 7), pad(us(c.thread), 6), pad(us(c.workerOther), 8), pad(us(c.redis), 5), pad(us(c.loader), 6),
      pad(`${(100 * u.threadMax / u.wall).toFixed(0)}%`, 11), pad(`${(100 * u.apiMain / u.wall).toFixed(0)}%`, 12)].join(' '));
  }
  L.push('(generate: a job of generate-structures per "request", conns = jobs in flight, p50/p99 = ms from submission to the poll that saw it succeed; loader = wrk or this driver)');
  // the saturation point of each route: its first (most connections) measurement
  const sat = new Map();
  for (const m of results) if (!sat.has(m.route)) sat.set(m.route, m);
  L.push('');
  L.push('per-thread ceilings at saturation (req/s one thread of each kind sustains at 100 % of a core = 1 / its CPU per request)');
  L.push(['route      ', 'conns', 'chemistry thread', 'api main', 'worker main', 'redis', 'measured/thread ceiling'].join(' '));
  for (const [route, m] of sat) {
    const c = m.costs, f = (x) => (1 / x).toFixed(route === 'generate' ? 2 : 0);
    L.push([pad(route, 11, true), pad(m.conns, 5), pad(f(c.thread), 16), pad(f(c.apiMain), 8), pad(f(c.workerMain), 11), pad(f(c.redis), 5), pad(`${((100 * m.rps * c.thread) / opt.threads).toFixed(0)}%`, 23)].join(' '));
  }
  L.push('');
  L.push('predicted maximum (bench/scale/model.mjs predict(): the smallest CPU ceiling, costs at saturation above) of A apis x W workers x T threads on C cores');
  L.push(['route      ', ...CONFIGS.map(([a, w, t, c]) => pad(`${a}x${w}x${t}/${c}c`, 20))].join(' '));
  for (const [route, m] of sat) {
    L.push([pad(route, 11, true), ...CONFIGS.map(([apis, workers, threads, c]) => { const p = predict(m.costs, { apis, workers, threads, cores: c }); return pad(`${p.rps.toFixed(route === 'generate' ? 1 : 0)} ${p.first}`, 20); })].join(' '));
  }
  L.push(`(measured here, 1x1x${opt.threads} on ${cores} cores: ${[...sat].map(([r, m]) => `${r} ${m.rps.toFixed(r === 'generate' ? 2 : 0)}`).join(', ')}; the chemistry thread is not 100 % busy there: the batch round trip leaves it idle part of the time)`);
  L.push('');
  // sizing: the costs at 16 connections (~8-16 calls per batch, the load per thread of bench/scale/scale.sh's
  // 16-core runs), not at saturation: the costs per call at 64 connections are lower than a deployment
  // whose threads each see fewer calls in flight can count on
  const basis = new Map();
  for (const m of results) if (m.conns === 16 || (!basis.has(m.route) && m.route === 'generate')) basis.set(m.route, m);
  for (const [route, m] of sat) if (!basis.has(route)) basis.set(route, m);
  L.push(`sizing on cores like these, from the costs at ${[...new Set([...basis.values()].map((m) => m.conns))].join('/')} connections (rule: ${RULE})`);
  L.push(['route      ', 'target/s', 'apis', 'workers', 'threads/worker', 'cores', 'redis busy', 'predicted max', 'first'].join(' '));
  for (const [route, m] of basis) {
    for (const x of TARGETS[route] ?? [1000]) {
      const s = sizing(m.costs, x);
      L.push([pad(route, 11, true), pad(x, 8), pad(s.apis, 4), pad(s.workers, 7), pad(s.threads, 14), pad(s.cores, 5), pad(`${(100 * s.redisBusy).toFixed(0)}%${s.ok ? '' : ' (!)'}`, 10), pad(s.predicted.rps.toFixed(route === 'generate' ? 1 : 0), 13), s.predicted.first].join(' '));
    }
  }
  if ([...basis.values()].some((m) => TARGETS[m.route]?.some((x) => !sizing(m.costs, x).ok))) L.push('(!) one Redis would be more than 70 % busy: beyond what one deployment with one Redis should be asked for');
  return L.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(report(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
