/**
 * `npm run catalog:import -- <file> [<file> ...]`: loads TSV/CSV/SDF files (optionally .gz) into
 * the catalog store chosen by the environment (MONGO_URL, else the embedded store in DATA_DIR),
 * as import jobs (jobs.ts), the path `POST /api/imports` takes: rows are derived in chunks on a
 * pool of WORKERS chemistry threads in this process, or, with REDIS_URL, by the worker processes
 * (as many as run). A progress bar with rows/s and the time left goes to stderr; the summary of
 * each file is printed to stdout as JSON at the end.
 *
 * An import that was stopped (Ctrl-C, a crash, SIGKILL) resumes from its last checkpoint when
 * the same file is imported again. Exit status: 0 when every file loaded (rejected rows
 * included), 1 on a fatal error, 130 when interrupted (the import resumes next time).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig, threadConfig } from '../../../shared/config.ts';
import { createBullRunner } from '../../../shared/jobs/bullmq.ts';
import { createInlineRunner } from '../../../shared/jobs/inline.ts';
import type { JobRunner } from '../../../shared/jobs/types.ts';
import { createLogger } from '../../../shared/log.ts';
import { createPool, type ChemPool } from '../../../shared/threads/pool.ts';
import { timeoutsOf } from '../../services.ts';
import { openStore } from '../store/open.ts';
import { ImportJobs, type ImportRecord } from './jobs.ts';
import { derivationsOn } from './derive-cache.ts';

function duration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '--:--';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  return `${h ? `${h}:${String(m).padStart(2, '0')}` : String(m)}:${String(sec).padStart(2, '0')}`;
}

/** Draws a job's progress: a bar on a terminal, a line per 10 % elsewhere. */
function progressBar(label: string): (rec: ImportRecord, final?: boolean) => void {
  const tty = process.stderr.isTTY;
  let last = -1;
  let drawn = 0;
  return (rec, final = false) => {
    const p = rec.progress;
    const frac = p.total_bytes ? Math.min(1, p.bytes / p.total_bytes) : 0;
    const pct = Math.floor(frac * 100);
    if (!final && !tty && Math.floor(pct / 10) <= last) return;
    if (!final && tty && Date.now() - drawn < 200) return;
    last = tty ? pct : Math.floor(pct / 10);
    drawn = Date.now();
    const width = 30;
    const filled = Math.round(frac * width);
    const rate = p.rows_per_s === null ? '' : ` ${p.rows_per_s.toFixed(0)} rows/s`;
    const bar = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${p.rows} rows${rate} ETA ${duration(p.eta_s)}`;
    process.stderr.write(tty ? `\r${bar}\x1b[K` : `${bar}\n`);
  };
}

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('-'));
  if (!files.length || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write('usage: npm run catalog:import -- [--revoke-absent] <file.tsv|.csv|.sdf[.gz]|.zip> [...]\n  --revoke-absent  the file is a whole COCONUT release: revoke the COCONUT molecules it leaves out\n');
    return files.length ? 0 : 1;
  }
  const cfg = loadConfig();
  const log = createLogger({ level: cfg.LOG_LEVEL === 'info' ? 'warn' : cfg.LOG_LEVEL, role: 'cli', fd: 2 });
  const store = await openStore({ mongoUrl: cfg.MONGO_URL, dataDir: cfg.DATA_DIR });
  let pool: ChemPool | undefined;
  let runner: JobRunner;
  const timeouts = timeoutsOf(cfg);
  if (cfg.REDIS_URL) {
    runner = await createBullRunner({ redisUrl: cfg.REDIS_URL, prefix: cfg.QUEUE_PREFIX, attempts: cfg.JOB_ATTEMPTS, timeouts, logger: log });
  } else {
    const p = (pool = createPool(cfg.WORKERS, threadConfig(cfg), log));
    runner = createInlineRunner({ execute: (task, args, hooks) => p.run(task, args, hooks), timeouts, load: () => p.load() });
  }
  const jobs = new ImportJobs({
    dir: join(cfg.DATA_DIR, 'imports'),
    store,
    ...derivationsOn(runner),
    sampleEvery: cfg.IMPORT_SAMPLE_EVERY,
    chunk: cfg.IMPORT_CHUNK,
    uploadLimit: cfg.IMPORT_UPLOAD_LIMIT,
    log,
  });
  let interrupted = false;
  const stop = () => {
    interrupted = true;
    process.stderr.write('\nstopping: the import resumes from here when this file is imported again\n');
    void jobs.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await jobs.start();
    for (const name of files) {
      const path = resolve(name);
      const st = await stat(path);
      const file = { path, size: st.size, mtimeMs: st.mtimeMs };
      const stopped = await jobs.stopped(file);
      const rec = (stopped && (await jobs.resume(stopped))) || (await jobs.submitPath(file, { userId: null, revokeAbsent: argv.includes('--revoke-absent') }));
      if (stopped) process.stderr.write(`resuming import ${rec.id} of ${name} after row ${rec.checkpoint?.row ?? 0}\n`);
      const draw = progressBar(name.split('/').at(-1)!);
      const off = jobs.onProgress((r) => r.id === rec.id && draw(r));
      const end = await jobs.settled(rec.id);
      off();
      if (end) draw(end, true);
      if (process.stderr.isTTY) process.stderr.write('\n');
      if (interrupted) return 130;
      if (!end || end.status !== 'succeeded') throw new Error(`import of ${name} ${end?.status ?? 'lost'}${end?.error ? `: ${end.error}` : ''}`);
      process.stdout.write(JSON.stringify({ file: name, job: end.id, ...end.summary }, null, 2) + '\n');
    }
  } finally {
    await jobs.close();
    await runner.close();
    await pool?.destroy();
    await store.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`\nimport failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
