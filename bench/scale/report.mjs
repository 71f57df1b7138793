// Summary table of one run of scale.sh: node report.mjs <scale.tsv> <run_id>
// speedup = req/s over the same mode's (inline / distributed) and route's configuration with the
// fewest chemistry threads; eff = speedup / (chemistry threads / that configuration's threads).
import { readFileSync } from 'node:fs';
import { costs, predict, fit, predict2, isSmall, us } from './model.mjs';

const [file, runId] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').trim().split('\n');
const header = lines[0].split('\t');
const rows = lines.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [header[i], v]))).filter((r) => r.run_id === runId);
if (!rows.length) {
  console.log(`no rows for run ${runId} in ${file}`);
  process.exit(0);
}
const num = (v) => Number(v);
const base = new Map();
for (const r of rows) {
  const key = `${r.mode}|${r.route}`;
  const b = base.get(key);
  if (!b || num(r.chem_threads) < num(b.chem_threads) || (num(r.chem_threads) === num(b.chem_threads) && num(r.api_procs) < num(b.api_procs))) base.set(key, r);
}
const cols = [
  ['mode', 6, (r) => r.mode],
  ['apis', 4, (r) => r.api_procs],
  ['wproc', 5, (r) => r.worker_procs],
  ['thr/p', 5, (r) => r.threads_per_proc],
  ['chem', 4, (r) => r.chem_threads],
  ['route', 11, (r) => r.route],
  ['conns', 5, (r) => r.conns],
  ['req/s', 9, (r) => num(r.rps).toFixed(0)],
  ['speedup', 7, (r) => { const b = base.get(`${r.mode}|${r.route}`); return (num(r.rps) / num(b.rps)).toFixed(2); }],
  ['eff', 5, (r) => { const b = base.get(`${r.mode}|${r.route}`); return ((num(r.rps) / num(b.rps)) / (num(r.chem_threads) / num(b.chem_threads))).toFixed(2); }],
  ['p50ms', 7, (r) => num(r.p50_ms).toFixed(1)],
  ['p99ms', 7, (r) => num(r.p99_ms).toFixed(1)],
  ['non2xx', 6, (r) => r.non2xx],
  ['sockerr', 7, (r) => r.sock_err],
  ['api%', 5, (r) => r.api_cpu_pct],
  ['apimain%', 8, (r) => r.api_main_pct],
  ['workers%', 8, (r) => r.workers_cpu_pct],
  ['redis%', 6, (r) => r.redis_cpu_pct],
  ['host%', 5, (r) => r.host_busy_pct],
  ['apiMB', 6, (r) => r.api_rss_mb],
  ['wrkrsMB', 7, (r) => r.workers_rss_mb],
];
const pad = (s, w, left) => (left ? String(s).padEnd(w) : String(s).padStart(w));
const first = rows[0];
console.log(`natprod CPU scaling, run ${runId} (${first.time}), ${first.cores} cores, node ${first.node}, wrk ${first.secs} s per configuration`);
console.log('cpu%: percent of one core over the measured window (api = whole api process(es), apimain = their main threads,');
console.log('workers = all worker processes, host = all cores busy); speedup/eff vs the same mode and route with the fewest threads');
console.log(cols.map(([h, w], i) => pad(h, w, i < 1 || h === 'route')).join(' '));
for (const r of rows) console.log(cols.map(([h, w, f], i) => pad(f(r), w, i < 1 || h === 'route')).join(' '));
const bad = rows.filter((r) => num(r.non2xx) > 0 || num(r.sock_err) > 0);
console.log(bad.length ? `WARNING: ${bad.length} configuration(s) had non-2xx answers or socket errors` : 'all answers 2xx, no socket errors');

// The capacity model (model.mjs): per-request costs from each mode and route's smallest
// configuration, then its prediction for every configuration of the run beside the measurement.
console.log('\ncapacity model: CPU per request (us) measured on the smallest configuration of each mode and route');
console.log(['mode  ', 'route      ', 'apiMain', 'apiOther', 'wrkMain', 'thread', 'redis', 'loader'].join(' '));
const model = new Map();
for (const [key, b] of base) {
  const c = costs(b);
  model.set(key, c);
  console.log([pad(b.mode, 6, true), pad(b.route, 11, true), pad(us(c.apiMain), 7), pad(us(c.apiOther), 8), pad(us(c.workerMain), 7), pad(us(c.thread), 6), pad(us(c.redis), 5), pad(us(c.loader), 6)].join(' '));
}
console.log('\nmodel 1 (CPU ceilings, costs of the smallest configuration) and model 2 (fitted on the small configurations:');
console.log('one api, at most 4 chemistry threads; closed loop of the run\'s connections, contention, worker count) against the measured req/s');
const fits = new Map();
for (const key of base.keys()) {
  const [mode, route] = key.split('|');
  const small = rows.filter((r) => r.mode === mode && r.route === route && isSmall(r));
  if (small.length) fits.set(key, fit(small));
}
for (const [key, m] of fits) console.log(`model 2 ${key.replace('|', ' ')}: fitted on ${m.fittedOn.join(', ')}: thread0 ${us(m.thread0)} us, kappa ${m.kappa.toFixed(2)}, workerMain ${us(m.wm1)} + ${us(m.wmSlope)} us per extra worker, apiMain ${us(m.apiMain)}, redis ${us(m.redis)}, gap ${(m.gap * 1e3).toFixed(2)} ms`);
console.log(['mode  ', 'apis', 'wproc', 'thr/p', 'route      ', 'measured', 'model1', 'error', 'first      ', 'model2', 'error', 'first'].join(' '));
const e1 = [], e2 = [];
for (const r of rows) {
  const c = model.get(`${r.mode}|${r.route}`);
  const cfg = { mode: r.mode, apis: num(r.api_procs), workers: num(r.worker_procs), threads: num(r.threads_per_proc), cores: num(r.cores) };
  const p = predict(c, cfg);
  const err = ((p.rps - num(r.rps)) / num(r.rps)) * 100;
  const m = fits.get(`${r.mode}|${r.route}`);
  const p2 = m && r.mode === 'dist' ? predict2(m, { ...cfg, conns: num(r.conns) }) : null;
  const err2 = p2 ? ((p2.rps - num(r.rps)) / num(r.rps)) * 100 : NaN;
  const fitted = isSmall(r);
  if (!fitted && r.mode === 'dist') { e1.push(err); if (p2) e2.push(err2); }
  const fmt = (e) => (Number.isNaN(e) ? '-' : `${e >= 0 ? '+' : ''}${e.toFixed(0)}%`);
  console.log([pad(r.mode, 6, true), pad(r.api_procs, 4), pad(r.worker_procs, 5), pad(r.threads_per_proc, 5), pad(r.route, 11, true), pad(num(r.rps).toFixed(0), 8), pad(p.rps.toFixed(0), 6), pad(fmt(err), 5), pad(p.first, 11, true), pad(p2 ? p2.rps.toFixed(0) : '-', 6), pad(fmt(err2), 5), p2 ? p2.first : '-', fitted ? '(fitted)' : ''].join(' '));
}
const range = (e) => (e.length ? `${Math.min(...e).toFixed(0)}..${Math.max(...e).toFixed(0)} %, ${e.filter((x) => Math.abs(x) <= 20).length} of ${e.length} within 20 %` : '-');
console.log(`distributed configurations not fitted on: model 1 errors ${range(e1)}; model 2 errors ${range(e2)}`);
