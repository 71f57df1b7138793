/**
 * Catalog import throughput: an import job (api/catalog/import/jobs.ts, the path of the command
 * line, `POST /api/imports` and MCP) of N distinct molecules into a fresh embedded store, rows
 * derived on a pool of THREADS chemistry threads in chunks (`derive_molecules`, IMPORT_CHUNK), against
 * the same import deriving one row per task (`derive_molecule`, the path before chunks). Prints
 * rows/s of each, their ratio, and the api process's CPU split; asserts nothing.
 *
 *   /usr/bin/python3 bench/data/build-search-set.py bench/data/search-10k.smi --count 10000 --seed 7   # once
 *   node --import tsx bench/import.ts [bench/data/search-10k.smi] [ROWS]
 *   THREADS=2 CHUNK=32 MODES=chunks,rows node --import tsx bench/import.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ImportJobs } from '../api/catalog/import/jobs.ts';
import { openStore } from '../api/catalog/store/open.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { createInlineRunner } from '../shared/jobs/inline.ts';
import { silentLogger } from '../shared/log.ts';
import { createPool } from '../shared/threads/pool.ts';

const SET = process.argv[2] ?? new URL('./data/search-10k.smi', import.meta.url).pathname;
const ROWS = Number(process.argv[3] ?? 5000);
const THREADS = Number(process.env.THREADS ?? 2);
const CHUNK = Number(process.env.CHUNK ?? 32);
const MODES = (process.env.MODES ?? 'chunks,rows').split(',');

if (!existsSync(SET)) {
  console.error(`${SET} is missing: build it with /usr/bin/python3 bench/data/build-search-set.py ${SET} --count 10000 --seed 7`);
  process.exit(2);
}

async function importOnce(csv: string, chunks: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-import-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WORKERS: String(THREADS) });
  const store = await openStore({ dataDir: dir });
  const pool = createPool(THREADS, threadConfig(config));
  const runner = createInlineRunner({
    execute: (task, args, hooks) => pool.run(task, args, hooks),
    timeouts: { quickMs: 60_000, longMs: 600_000, waitMs: 60_000, resultTtlSeconds: 60 },
    load: () => pool.load(),
  });
  // The threads start (RDKit loaded) before the clock does.
  await Promise.all(Array.from({ length: THREADS * 2 }, () => runner.runTask('derive_molecule', 'derive_molecule', { structure: 'CCO' })));
  const jobs = new ImportJobs({
    dir: join(dir, 'imports'),
    store,
    derive: (input) => runner.runTask('derive_molecule', 'derive_molecule', input),
    deriveMany: chunks ? (structures) => runner.runTask('derive_molecules', 'derive_molecules', { structures }) : undefined,
    chunk: CHUNK,
    uploadLimit: 1 << 30,
    log: silentLogger,
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rec = await jobs.submitPath({ path: csv, size: readFileSync(csv).length, mtimeMs: Date.now() }, { userId: null });
  const end = await jobs.settled(rec.id);
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await jobs.close();
  await runner.close();
  await pool.destroy();
  await store.close();
  await rm(dir, { recursive: true, force: true });
  if (end?.status !== 'succeeded') throw new Error(`import ${end?.status}: ${end?.error}`);
  return { rows: end.summary!.rows, created: end.summary!.created.molecules, secs, mainCpu: cpu.user / 1e6 + cpu.system / 1e6 };
}

const lines = readFileSync(SET, 'utf8').split('\n').filter(Boolean).slice(0, ROWS);
const csv = join(tmpdir(), `natprod-bench-import-${lines.length}.csv`);
writeFileSync(csv, ['smiles,name', ...lines.map((l) => l.split('\t').map((c) => `"${c.replace(/"/g, '""')}"`).join(','))].join('\n') + '\n');
console.log(`import of ${lines.length} distinct molecules (${SET}), ${THREADS} threads, chunk ${CHUNK}`);
const results: Record<string, number> = {};
for (const mode of MODES) {
  const r = await importOnce(csv, mode === 'chunks');
  results[mode] = r.rows / r.secs;
  console.log(`${mode.padEnd(7)} ${r.rows} rows (${r.created} molecules) in ${r.secs.toFixed(1)} s: ${(r.rows / r.secs).toFixed(0)} rows/s; process CPU ${(r.mainCpu / r.secs).toFixed(2)} cores`);
}
if (results.chunks && results.rows) console.log(`chunks / rows: ${(results.chunks / results.rows).toFixed(2)}x`);
await rm(csv, { force: true });
