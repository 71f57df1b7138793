/**
 * The service as benchmarks run it: api and worker processes started as children
 * (`node --import tsx <script>`), with what the bench's own environment must not leak into them
 * removed, limits off (the load comes from one address), and their RSS read from /proc.
 * Shared by bench/http.ts and bench/soak.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { readImportFile } from '../api/catalog/import/parse.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The distinct SMILES of the shipped LOTUS demo sample, in file order: the HTTP benchmarks' molecules. */
export async function lotusSmiles(): Promise<string[]> {
  const distinct = new Set<string>();
  const file = fileURLToPath(new URL('../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url));
  for await (const row of readImportFile(file)) if (row.molecule) distinct.add(row.molecule.canonical_smiles);
  return [...distinct];
}

export interface Service {
  name: string;
  script: string;
  child: ChildProcess;
  log: string;
  /** `http://127.0.0.1:<port>`: the api's port, or a worker's WORKER_METRICS_PORT. */
  base: string;
}

/** Started and not yet stopped (a SIGINT handler stops them). */
export const running = new Set<Service>();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

// Each mode says exactly where its store, Redis and threads are.
export const INHERITED = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !['REDIS_URL', 'MONGO_URL', 'WORKERS', 'QUEUE_PREFIX', 'PORT', 'WORKER_METRICS_PORT', 'DATA_DIR', 'SEED_DEMO'].includes(k)),
);

export function startService(name: string, script: string, vars: Record<string, string>, port: number, logDir: string): Service {
  const log = join(logDir, `${name.replace(/:/g, '-')}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    // A short shutdown grace: nothing in flight matters once a mode is measured.
    env: {
      ...INHERITED, HOST: '127.0.0.1', SEED_DEMO: 'false', SHUTDOWN_GRACE_MS: '2000',
      RATE_LIMIT_QUICK: '0', RATE_LIMIT_LONG: '0', RATE_LIMIT_WRITES: '0', LONG_JOBS_PER_CLIENT: '0', ...vars,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd); // the child holds its own copy
  const p = { name, script, child, log, base: `http://127.0.0.1:${port}` };
  running.add(p);
  return p;
}

export async function stopService(p: Service, graceMs = 10_000): Promise<void> {
  running.delete(p);
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  const kill = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(kill);
}

const children = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
};
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
/**
 * The process that runs the script. `node --import tsx x.ts` is that process itself (tsx is a
 * loader hook in it, and Piscina's threads are threads, not processes), but were the child a
 * wrapper (npx tsx, a shell), the real one would be below it; helpers it starts (esbuild) are not.
 */
export function realPid(pid: number, script: string): number {
  const inner = children(pid).find((c) => cmdline(c).includes(script));
  return inner ? realPid(inner, script) : pid;
}

/** Resident memory of the service's process, in MB (NaN once it is gone). */
export function rssMB(p: Service): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${realPid(p.child.pid!, p.script)}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Removes a run's keys from a shared Redis. */
export async function dropKeys(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    for await (const keys of r.scanStream({ match: `${prefix}:*`, count: 1000 })) if ((keys as string[]).length) await r.unlink(...(keys as string[]));
  } catch (e) {
    console.log(`  (could not remove ${prefix}:* from Redis: ${(e as Error).message})`);
  } finally {
    r.disconnect();
  }
}
