/**
 * The Piscina pool of chemistry threads and the one function that runs a task on it with a
 * timeout, cancellation and progress. Used by the inline runner (api process) and by the BullMQ
 * consumer (worker processes) alike, so both modes execute tasks identically.
 */
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError } from '../shared/errors.ts';
import type { ThreadMessage, ThreadOutcome, ThreadTask } from './thread.ts';

export type ChemPool = Piscina<ThreadTask, ThreadOutcome>;

export function createPool(threads: number, log: (msg: string, err: unknown) => void = defaultLog): ChemPool {
  const pool = new Piscina<ThreadTask, ThreadOutcome>({
    filename: new URL('./thread-entry.mjs', import.meta.url).href,
    // RDKit takes ~0.5 s to load: keep every thread alive for the life of the pool.
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 2 ** 31 - 1,
    // Tasks arrive already bounded by the runner's queue; never refuse here.
    maxQueue: Infinity,
  });
  // A thread that dies outside a task (e.g. while loading) is replaced by Piscina; without a
  // listener the event would take the whole process down.
  pool.on('error', (err) => log('chemistry thread failed', err));
  return pool;
}

const defaultLog = (msg: string, err: unknown) =>
  console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg, err: (err as Error)?.message ?? String(err) }));

export interface RunHooks {
  timeoutMs: number;
  /** Aborted to cancel the task (client cancellation, shutdown). */
  signal?: AbortSignal;
  onStart?: () => void;
  onProgress?: (value: number | Record<string, unknown>) => void;
}

/** How long a cancelled task may take to notice the cooperative abort before its thread is killed. */
const ABORT_GRACE_MS = 1_000;

/**
 * Run one task. Resolves with its value; rejects with an AppError: the task's own (4xx for bad
 * input), 504 on timeout, 499 on cancellation, 422 when RDKit's WASM faulted on the input (the
 * thread is replaced), 500 when the thread died (the pool replaces it).
 */
export async function runTask(pool: ChemPool, task: string, args: unknown, hooks: RunHooks): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  const kill = new AbortController();
  let reason: AppError | undefined;
  const stop = (why: AppError) => {
    if (reason) return;
    reason = why;
    port1.postMessage({ type: 'abort' });
    setTimeout(() => kill.abort(why), ABORT_GRACE_MS).unref();
  };
  const timer = setTimeout(
    () => stop(new AppError(504, `Task ${task} exceeded its time limit of ${hooks.timeoutMs} ms`, 'timeout')),
    hooks.timeoutMs,
  );
  const onAbort = () => stop(new AppError(499, 'Job cancelled', 'cancelled'));
  if (hooks.signal?.aborted) onAbort();
  hooks.signal?.addEventListener('abort', onAbort, { once: true });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    hooks.onStart?.();
  };
  port1.on('message', (m: ThreadMessage) => {
    if (m.type === 'started') start();
    else if (m.type === 'progress') hooks.onProgress?.(m.value);
    else if (m.type === 'fault') {
      // RDKit's WASM trapped on this input: answer it as unprocessable (never retried) and
      // terminate the thread at once, since its module is no longer trustworthy.
      const why = new AppError(
        422,
        `RDKit could not process this structure (WebAssembly fault: ${m.detail}); it is probably too large or too deeply nested`,
        'wasm_fault',
      );
      stop(why);
      kill.abort(why);
    }
  });
  try {
    const outcome = await pool.run({ task, args, port: port2 }, { transferList: [port2], signal: kill.signal });
    // The outcome can overtake the port's `started` message: the task did run.
    start();
    if (outcome.ok) return outcome.value;
    throw AppError.from(outcome.error) ?? new AppError(500, String(outcome.error));
  } catch (e) {
    if (reason) throw reason;
    const app = AppError.from(e);
    if (app) throw app;
    // Piscina rejects when the thread exits or crashes under a running task.
    throw new AppError(500, `Worker thread failed while running ${task}: ${(e as Error)?.message ?? e}`, 'worker_crash');
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener('abort', onAbort);
    port1.close();
  }
}
