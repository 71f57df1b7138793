/**
 * Fault tests run the service the way it is deployed: the api and worker processes as children
 * (`node --import tsx api/server.ts` / `workers/main.ts`), against a redis-server of their own on a
 * free port (never the machine's Redis: these tests stop and restart theirs). Everything started
 * here is killed at the end of the test that started it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { answers as redisAnswers, freePort } from '../helpers/redis.ts';

export { freePort };

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Tap = { teardown: (fn: () => unknown) => void; comment: (...a: unknown[]) => void };

export function tempDir(t: Tap, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `natprod-fault-${name}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Whether a redis-server binary can be started here (the Redis fault tests need their own). */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A redis-server of this test on its own port, persisting as the compose file's does
 * (`--appendonly yes`, in a temp dir), so that a restart keeps the queues.
 */
export class OwnRedis {
  child?: ChildProcess;
  readonly url: string;
  private constructor(readonly port: number, private readonly dir: string) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async create(t: Tap, port?: number): Promise<OwnRedis> {
    const r = new OwnRedis(port ?? (await freePort()), tempDir(t, 'redis'));
    t.teardown(() => r.stop('SIGKILL'));
    return r;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (await redisAnswers(this.url, 500)) return;
      await sleep(50);
    }
    throw new Error(`redis-server on port ${this.port} did not answer`);
  }

  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  }
}

export interface Service {
  name: string;
  child: ChildProcess;
  /** Every line the process wrote (stdout and stderr). */
  lines: string[];
  /** The api's HTTP port, or the worker's health/metrics port, once it said so. */
  port?: number;
  readonly alive: boolean;
  /** Resolves with the first line (already written or to come) matching re. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** What every service process of these tests gets: limits off, no demo import, quick stalled-job recovery. */
export function serviceEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['REDIS_URL', 'MONGO_URL', 'WORKERS', 'QUEUE_PREFIX', 'PORT', 'WORKER_METRICS_PORT', 'DATA_DIR', 'NODE_OPTIONS', 'TAP', 'TAP_CHILD_ID'].includes(k) && !k.startsWith('TAP_')),
  );
  return {
    ...inherited,
    HOST: '127.0.0.1',
    PORT: '0',
    WORKER_METRICS_PORT: '0',
    SEED_DEMO: 'false',
    WORKERS: '1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_QUICK: '0',
    RATE_LIMIT_LONG: '0',
    RATE_LIMIT_WRITES: '0',
    LONG_JOBS_PER_CLIENT: '0',
    JOB_LOCK_MS: '3000',
    SHUTDOWN_GRACE_MS: '0',
    OPSIN_JAR: 'off',
    ...vars,
  };
}

/**
 * Starts `node --import tsx <script>` (or `command` through a shell that execs it, so that it
 * keeps the shell's pid). Its port is read from its own log: the api's "Server listening at",
 * the worker's "worker ready".
 */
export function startService(t: Tap, name: string, script: string, env: NodeJS.ProcessEnv, opts: { shellPrefix?: string } = {}): Service {
  const args = ['--import', 'tsx', script];
  const child = opts.shellPrefix
    ? spawn('/bin/sh', ['-c', `${opts.shellPrefix}; exec "$0" "$@"`, process.execPath, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  const svc: Service = {
    name,
    child,
    lines,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    waitFor(re, timeoutMs = 60_000) {
      const found = lines.find((l) => re.test(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no line matching ${re} within ${timeoutMs} ms; last lines:\n${lines.slice(-15).join('\n')}`)), timeoutMs);
        const onExit = () => {
          clearTimeout(timer);
          reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before a line matching ${re}; last lines:\n${lines.slice(-15).join('\n')}`));
        };
        child.once('exit', onExit);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            child.off('exit', onExit);
            resolve(l);
          },
        });
      });
    },
    async kill(signal = 'SIGKILL') {
      if (!svc.alive) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.on('data', (d: Buffer) => {
      const parts = (rest + d.toString()).split('\n');
      rest = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const api = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (api) svc.port = Number(api[1]);
        if (line.includes('"worker ready"')) svc.port = JSON.parse(line).metrics_port as number;
        for (let i = waiters.length - 1; i >= 0; i--) {
          if (waiters[i]!.re.test(line)) waiters.splice(i, 1)[0]!.resolve(line);
        }
      }
    });
  }
  t.teardown(() => svc.kill('SIGKILL'));
  return svc;
}

export const startApi = (t: Tap, name: string, env: NodeJS.ProcessEnv, opts?: { shellPrefix?: string }) => startService(t, name, 'api/server.ts', env, opts);
export const startWorker = (t: Tap, name: string, env: NodeJS.ProcessEnv) => startService(t, name, 'workers/main.ts', env);

/** Resolves once the api listens (its port known) or the worker took its queues. */
export async function ready(svc: Service, timeoutMs = 90_000): Promise<Service> {
  await svc.waitFor(svc.name.startsWith('api') ? /Server listening at/ : /"worker ready"/, timeoutMs);
  return svc;
}

/** CPU time (user + system, in clock ticks) the process used so far, all its threads included. */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export interface Answer {
  status: number;
  body: unknown;
  ms: number;
  start: number;
  error?: string;
}

/** One HTTP request; a transport failure or a client timeout is status 0 with the error. */
export async function request(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Answer> {
  const start = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 60_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, ms: Date.now() - start, start };
  } catch (e) {
    return { status: 0, body: undefined, ms: Date.now() - start, start, error: (e as Error).message };
  }
}

/** Small molecules for quick calls; tests read their expected answers from the healthy service first. */
export const MOLECULES = [
  'OC(=O)c1ccccc1O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'C1=CC=CC=C1', 'CCO', 'OCC1OC(O)C(O)C(O)C1O',
  'CC(=O)Oc1ccccc1C(=O)O', 'C1CCCCC1', 'NCCc1ccc(O)c(O)c1', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O', 'C1=CC=C2C(=C1)C=CN2',
];

export const canonicalUrl = (base: string, smiles: string) => `${base}/latest/convert/canonicalsmiles?smiles=${encodeURIComponent(smiles)}`;

/** Prometheus text: the value of one sample (exact name and labels as printed), or undefined. */
export function sample(metrics: string, name: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(name + ' '));
  return line ? Number(line.slice(name.length + 1)) : undefined;
}

/** A queue prefix of its own for each test. */
export const uniquePrefix = (name: string) => `natprod-fault-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/** Deletes every key under `<prefix>:` (a test's private queue prefix) once its processes are gone. */
export async function dropPrefix(redisUrl: string, prefix: string): Promise<void> {
  const r = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await r.del(...keys);
  } while (cursor !== '0');
  r.disconnect();
}

/**
 * Two apis and a worker on one Redis under `prefix` (docs/operations.md, "Several apis"), ready;
 * at the end of the test the processes are killed first (whatever order tap runs the teardowns
 * in), then their keys are dropped.
 */
export async function twoApisAndWorker(t: Tap, redisUrl: string, prefix: string, env: NodeJS.ProcessEnv) {
  const apiA = startApi(t, 'api-A', env);
  const apiB = startApi(t, 'api-B', env);
  const worker = startWorker(t, 'worker', env);
  t.teardown(async () => {
    await Promise.all([apiA, apiB, worker].map((s) => s.kill('SIGKILL')));
    await dropPrefix(redisUrl, prefix);
  });
  await Promise.all([ready(apiA), ready(apiB), ready(worker)]);
  return { apiA, apiB, worker };
}
