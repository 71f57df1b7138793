/**
 * The embedded job runner: jobs run on the api process's own Piscina pool and their records live
 * in memory for `resultTtlSeconds`. Same ids, states and answers as the BullMQ runner, so
 * clients cannot tell the modes apart (one contract test suite runs against both).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { AppError } from '../errors.ts';
import type { JobObserver, RunnerTimeouts, TaskExecutor } from './executor.ts';
import { isFinished, isReusable, resultOf } from './outcome.ts';
import type { JobRecord, JobRunner, SubmitOptions } from './types.ts';

interface Entry {
  record: JobRecord;
  cancel: AbortController;
  expires?: number;
}

export interface InlineRunnerOptions {
  execute: TaskExecutor;
  timeouts: RunnerTimeouts;
  observer?: JobObserver;
}

export function createInlineRunner(opts: InlineRunnerOptions): JobRunner {
  const { execute, timeouts, observer } = opts;
  const jobs = new Map<string, Entry>();
  const done = new EventEmitter();
  done.setMaxListeners(0);
  let closed = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, e] of jobs) if (e.expires !== undefined && e.expires <= now) jobs.delete(id);
  }, 10_000);
  sweep.unref();

  const finish = (e: Entry, patch: Partial<JobRecord>) => {
    if (isFinished(e.record)) return;
    Object.assign(e.record, patch, { finished_at: new Date().toISOString() });
    e.expires = Date.now() + timeouts.resultTtlSeconds * 1000;
    const started = Date.parse(e.record.started_at ?? e.record.created_at);
    observer?.finished(e.record.op, e.record.status as 'succeeded', (Date.now() - started) / 1000);
    done.emit(e.record.id, e.record);
  };

  const snapshot = (e: Entry): JobRecord => structuredClone(e.record);

  const runner: JobRunner = {
    kind: 'inline',

    async submit(op, task, args, so: SubmitOptions = {}) {
      if (closed) throw new AppError(503, 'The service is shutting down; no new jobs are accepted', 'unavailable');
      if (so.jobId) {
        const existing = jobs.get(so.jobId);
        if (existing && isReusable(existing.record)) return snapshot(existing);
      }
      const id = so.jobId ?? randomUUID();
      const e: Entry = {
        record: { id, op, status: 'queued', progress: 0, attempts: 0, created_at: new Date().toISOString() },
        cancel: new AbortController(),
      };
      jobs.set(id, e);
      const timeoutMs = so.timeoutMs ?? (so.mode === 'long' ? timeouts.longMs : timeouts.quickMs);
      execute(task, args, {
        timeoutMs,
        signal: e.cancel.signal,
        onStart: () => {
          if (e.record.status === 'queued') Object.assign(e.record, { status: 'running', attempts: 1, started_at: new Date().toISOString() });
        },
        onProgress: (value) => {
          e.record.progress = value;
        },
      }).then(
        (result) => finish(e, { status: 'succeeded', result, progress: 100 }),
        (err) => {
          const app = AppError.from(err) ?? new AppError(500, String(err));
          if (app.code === 'cancelled') finish(e, { status: 'cancelled' });
          else finish(e, { status: 'failed', error: app.toJSON() });
        },
      );
      return snapshot(e);
    },

    async wait(id, timeoutMs) {
      const e = jobs.get(id);
      if (!e) throw new AppError(404, `Job ${id} not found`, 'not_found');
      if (isFinished(e.record)) return snapshot(e);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          done.off(id, onDone);
          resolve();
        }, timeoutMs);
        const onDone = () => {
          clearTimeout(timer);
          resolve();
        };
        done.once(id, onDone);
      });
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
        e.cancel.abort();
        // A queued task never reached a thread: it is cancelled now, not when Piscina gets to it.
        if (e.record.status === 'queued') finish(e, { status: 'cancelled' });
        else await runner.wait(id, 5_000);
      }
      return snapshot(e);
    },

    async run(op, task, args, so = {}) {
      const rec = await runner.submit(op, task, args, so);
      const waitMs = so.waitMs ?? timeouts.waitMs;
      return resultOf(await runner.wait(rec.id, waitMs), waitMs);
    },

    async depth() {
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
