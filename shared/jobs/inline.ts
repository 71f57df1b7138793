/**
 * The embedded job runner: jobs run on the api process's own Piscina pool and their records live
 * in memory for `resultTtlSeconds`. Same ids, states and answers as the BullMQ runner, so
 * clients cannot tell the modes apart (one contract test suite runs against both).
 *
 * `run()` (a quick call awaited by its caller) keeps no record: it is the pool's promise and a
 * timer. Only a call that outlives its wait becomes a job with a record (the 504 names it, and it
 * can be polled or cancelled like any other); `submit()` (polled jobs) always keeps one.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { JobObserver, RunnerTimeouts, TaskExecutor, TaskRunHandle } from './executor.ts';
import { isFinished, isReusable, resultOf } from './outcome.ts';
import type { JobRecord, JobRunner, SubmitOptions } from './types.ts';
import { typedCalls } from './typed.ts';

interface Entry {
  record: JobRecord;
  run: TaskRunHandle;
  /** Callers of wait() for this job. */
  waiters: (() => void)[];
  expires?: number;
}

export interface InlineRunnerOptions {
  execute: TaskExecutor;
  timeouts: RunnerTimeouts;
  observer?: JobObserver;
  /** Tasks waiting for a thread and running, as the pool counts them (calls awaited by `run()` have no record). */
  load?: () => { waiting: number; active: number };
}

const now = () => new Date().toISOString();

export function createInlineRunner(opts: InlineRunnerOptions): JobRunner {
  const { execute, timeouts, observer } = opts;
  const jobs = new Map<string, Entry>();
  let closed = false;

  const sweep = setInterval(() => {
    const t = Date.now();
    for (const [id, e] of jobs) if (e.expires !== undefined && e.expires <= t) jobs.delete(id);
  }, 10_000);
  sweep.unref();

  const finish = (e: Entry, patch: Partial<JobRecord>) => {
    if (isFinished(e.record)) return;
    Object.assign(e.record, patch, { finished_at: now() });
    e.expires = Date.now() + timeouts.resultTtlSeconds * 1000;
    const waiters = e.waiters;
    e.waiters = [];
    for (const w of waiters) w();
  };

  /** A copy of the record as it is now (a queued task that a thread took is reported running). */
  const snapshot = (e: Entry): JobRecord => {
    if (e.record.status === 'queued' && e.run.started?.()) Object.assign(e.record, { status: 'running', attempts: 1, started_at: now() });
    return { ...e.record };
  };

  /** Watch a task's end and keep its outcome in the entry's record. */
  const track = (e: Entry) => {
    e.run.then(
      (result) => finish(e, { status: 'succeeded', result, progress: 100 }),
      (err) => {
        const app = AppError.from(err) ?? new AppError(500, String(err));
        if (app.code === 'cancelled') finish(e, { status: 'cancelled' });
        else finish(e, { status: 'failed', error: app.toJSON() });
      },
    );
  };

  const observe = (op: string, started: number, run: Promise<unknown>) =>
    run.then(
      () => observer?.finished(op, 'succeeded', (Date.now() - started) / 1000),
      (err) => observer?.finished(op, AppError.from(err)?.code === 'cancelled' ? 'cancelled' : 'failed', (Date.now() - started) / 1000),
    );

  const refuseWhenClosed = () => {
    if (closed) throw new AppError(503, 'The service is shutting down; no new jobs are accepted', 'unavailable');
  };

  const runner: JobRunner = {
    kind: 'inline',
    ...typedCalls,

    async submit(op, task, args, so: SubmitOptions = {}) {
      refuseWhenClosed();
      if (so.jobId) {
        const existing = jobs.get(so.jobId);
        if (existing && isReusable(existing.record)) return snapshot(existing);
      }
      const id = so.jobId ?? randomUUID();
      const record: JobRecord = { id, op, status: 'queued', progress: 0, attempts: 0, created_at: now() };
      const timeoutMs = so.timeoutMs ?? (so.mode === 'long' ? timeouts.longMs : timeouts.quickMs);
      const run = execute(task, args, {
        timeoutMs,
        onStart: () => {
          if (record.status === 'queued') Object.assign(record, { status: 'running', attempts: 1, started_at: now() });
        },
        onProgress: (value) => {
          record.progress = value;
        },
      });
      const e: Entry = { record, run, waiters: [] };
      jobs.set(id, e);
      void observe(op, Date.now(), run);
      track(e);
      return snapshot(e);
    },

    async wait(id, timeoutMs) {
      const e = jobs.get(id);
      if (!e) throw new AppError(404, `Job ${id} not found`, 'not_found');
      if (!isFinished(e.record)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            e.waiters = e.waiters.filter((w) => w !== done);
            resolve();
          }, timeoutMs);
          e.waiters.push(done);
        });
      }
      return snapshot(e);
    },

    async get(id) {
      const e = jobs.get(id);
      if (!e) return undefined;
      if (e.expires !== undefined && e.expires <= Date.now()) {
        jobs.delete(id);
        return undefined;
      }
      return snapshot(e);
    },

    async cancel(id) {
      const e = jobs.get(id);
      if (!e) return undefined;
      if (!isFinished(e.record)) {
        const queued = !e.run.started?.();
        e.run.cancel?.();
        // A queued task never reached a thread: it is cancelled now, not when the pool gets to it.
        if (queued) finish(e, { status: 'cancelled' });
        else await runner.wait(id, 5_000);
      }
      return snapshot(e);
    },

    async run(op, task, args, so = {}) {
      // An idempotency key needs the record to find the job again.
      if (so.jobId) {
        const rec = await runner.submit(op, task, args, so);
        const waitMs = so.waitMs ?? timeouts.waitMs;
        return resultOf(await runner.wait(rec.id, waitMs), waitMs);
      }
      refuseWhenClosed();
      const created = now();
      const started = Date.now();
      const timeoutMs = so.timeoutMs ?? (so.mode === 'long' ? timeouts.longMs : timeouts.quickMs);
      const run = execute(task, args, { timeoutMs });
      void observe(op, started, run);
      const waitMs = so.waitMs ?? timeouts.waitMs;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<typeof LATE>((resolve) => {
        timer = setTimeout(resolve, waitMs, LATE);
      });
      try {
        const value = await Promise.race([run, late]);
        if (value !== LATE) return value;
      } finally {
        clearTimeout(timer);
      }
      // The call outlived its wait: from now on it is a job like a submitted one, and the 504 names it.
      const record: JobRecord = { id: randomUUID(), op, status: 'queued', progress: 0, attempts: 0, created_at: created };
      const e: Entry = { record, run, waiters: [] };
      jobs.set(record.id, e);
      track(e);
      return resultOf(snapshot(e), waitMs);
    },

    async depth() {
      if (opts.load) return [{ queue: 'inline', ...opts.load() }];
      let waiting = 0;
      let active = 0;
      for (const e of jobs.values()) {
        if (e.record.status === 'queued') waiting++;
        else if (e.record.status === 'running') active++;
      }
      return [{ queue: 'inline', waiting, active }];
    },

    async close() {
      closed = true;
      clearInterval(sweep);
    },
  };
  return runner;
}

const LATE = Symbol('late');
