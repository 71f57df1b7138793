/**
 * Records of dump jobs (`POST /api/dumps`, `GET /api/dumps/jobs/{id}`), and the rule "one dump at
 * a time".
 *
 * - Embedded mode (no Redis): in this process's memory, as before; one dump at a time per process.
 * - Distributed mode: in Redis, so that any api process answers the status of a dump another one
 *   runs, and one dump at a time across all of them. `<prefix>:dumps:running` is the lock (its
 *   value the running job's id; it lapses `LOCK_MS` after its process stopped refreshing it) and
 *   `<prefix>:dumps:job:<id>` the record (JSON). A record that says `running` while the lock is
 *   not its own is a dump whose process stopped: it reads as failed. The files themselves are
 *   written to DUMP_DIR, which every api process must share (docs/operations.md, Several apis).
 */
import type { Redis } from 'ioredis';
import { HttpError } from '../schema/types.ts';

export interface DumpJob {
  id: string;
  status: 'running' | 'succeeded' | 'failed';
  date: string;
  sdf3d: boolean;
  progress: { rows: number; total: number };
  created_at: string;
  finished_at?: string;
  error?: string;
  user_id: number;
}

export interface DumpJobs {
  /** Takes the lock and stores the record; resolves with the id of the dump running already instead, if any. */
  begin(job: DumpJob): Promise<{ ok: true } | { ok: false; running: string }>;
  /** The record as it progresses (written at most every few hundred ms; no need to await). */
  progress(job: DumpJob): void;
  /** The final record (succeeded or failed), then the lock released. */
  end(job: DumpJob): Promise<void>;
  get(id: string): Promise<DumpJob | undefined>;
  close(): void;
}

/** Records kept by the in-process store. */
const KEEP_JOBS = 50;

export function memoryDumpJobs(): DumpJobs {
  const jobs = new Map<string, DumpJob>();
  let running: DumpJob | undefined;
  return {
    async begin(job) {
      if (running) return { ok: false, running: running.id };
      running = job;
      jobs.set(job.id, job);
      for (const old of [...jobs.keys()].slice(0, Math.max(0, jobs.size - KEEP_JOBS))) jobs.delete(old);
      return { ok: true };
    },
    progress() {
      // The record is the object itself.
    },
    async end(job) {
      jobs.set(job.id, job);
      if (running?.id === job.id) running = undefined;
    },
    async get(id) {
      const job = jobs.get(id);
      return job && { ...job, progress: { ...job.progress } };
    },
    close() {},
  };
}

/** The lock lapses this long after its process stopped refreshing it ... */
export const LOCK_MS = 30_000;
/** ... which it does this often while the dump runs. */
const REFRESH_MS = 5_000;
/** Progress is written at most this often. */
const PROGRESS_MS = 500;
/** A running record outlives a dead process by at most this long (then it is gone: 404). */
const RUNNING_TTL_S = 7 * 24 * 3600;

/** Sets the key's expiry only while it still holds our value. */
const REFRESH = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes the key only while it still holds our value. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export const dumpKeys = (prefix: string) => ({
  lock: `${prefix}:dumps:running`,
  job: (id: string) => `${prefix}:dumps:job:${id}`,
});

const unavailable = (e: unknown) => new HttpError(503, `Dump jobs are kept in Redis, which did not answer (${(e as Error)?.message ?? e}); try again shortly.`);

export function redisDumpJobs(redis: Redis, prefix: string, ttlSeconds: number): DumpJobs {
  const k = dumpKeys(prefix);
  const timers = new Map<string, { refresh: NodeJS.Timeout; lastWrite: number }>();
  /** Writes of one record, in order (the final one never overtaken by a late progress write). */
  const chains = new Map<string, Promise<unknown>>();
  const write = (job: DumpJob, ttl: number) => {
    const body = JSON.stringify(job);
    const step = () => redis.set(k.job(job.id), body, 'EX', ttl);
    const next = (chains.get(job.id) ?? Promise.resolve()).then(step, step);
    const tail = next.catch(() => {});
    chains.set(job.id, tail);
    void tail.then(() => chains.get(job.id) === tail && chains.delete(job.id));
    return next;
  };
  const ttlOf = (job: DumpJob) => (job.status === 'running' ? RUNNING_TTL_S : Math.max(1, ttlSeconds));

  return {
    async begin(job) {
      try {
        if ((await redis.set(k.lock, job.id, 'PX', LOCK_MS, 'NX')) !== 'OK') {
          return { ok: false, running: (await redis.get(k.lock)) ?? 'unknown' };
        }
        await write(job, ttlOf(job));
      } catch (e) {
        await redis.eval(RELEASE, 1, k.lock, job.id).catch(() => {});
        throw unavailable(e);
      }
      const refresh = setInterval(() => void redis.eval(REFRESH, 1, k.lock, job.id, String(LOCK_MS)).catch(() => {}), REFRESH_MS);
      refresh.unref();
      timers.set(job.id, { refresh, lastWrite: Date.now() });
      return { ok: true };
    },
    progress(job) {
      const t = timers.get(job.id);
      if (!t || Date.now() - t.lastWrite < PROGRESS_MS) return;
      t.lastWrite = Date.now();
      void write(job, ttlOf(job)).catch(() => {});
    },
    async end(job) {
      const t = timers.get(job.id);
      if (t) clearInterval(t.refresh);
      timers.delete(job.id);
      try {
        await write(job, ttlOf(job));
      } finally {
        await redis.eval(RELEASE, 1, k.lock, job.id).catch(() => {});
      }
    },
    async get(id) {
      let raw: string | null;
      let lock: string | null;
      try {
        // The lock first: a dump writes its final record before it releases the lock, so a
        // record still `running` read after a lock that is not its own is really orphaned.
        lock = await redis.get(k.lock);
        raw = await redis.get(k.job(id));
      } catch (e) {
        throw unavailable(e);
      }
      if (!raw) return undefined;
      const job = JSON.parse(raw) as DumpJob;
      if (job.status === 'running' && lock !== job.id) {
        // Its process stopped without ending it (the lock lapsed): it will never end.
        const failed: DumpJob = { ...job, status: 'failed', error: 'the api process running this dump stopped; start it again', finished_at: new Date().toISOString() };
        await redis.set(k.job(id), JSON.stringify(failed), 'EX', ttlOf(failed)).catch(() => {});
        return failed;
      }
      return job;
    },
    close() {
      for (const t of timers.values()) clearInterval(t.refresh);
      timers.clear();
    },
  };
}
