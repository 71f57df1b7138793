/**
 * (Over 300 lines on purpose: the pool's protocol with its threads, single tasks and batches, time limits, cancellation and hand-overs, reads as one piece; split, the shared-memory states each part changes would be spread over files.)
 * The Piscina pool of chemistry threads and the one function that runs a task on it with a
 * timeout, cancellation and progress. Used by the inline runner (api process) and by the BullMQ
 * consumer (worker processes) alike, so both modes execute tasks identically.
 *
 * A task costs one Piscina message each way and nothing else: no MessagePort per task (each one
 * transferred to a thread leaks native memory, ~4 KB), no AbortSignal given to Piscina (abortable
 * tasks go to a separate queue that overtakes the FIFO one, and they are starved under load:
 * piscina#1031). What a task needs beyond its answer travels on shared channels instead:
 * - which task each thread is running: a SharedArrayBuffer the thread writes at every start, so
 *   the pool can find and terminate the thread of a task that outlives its time limit;
 * - whether a task started, or was cancelled before it did: a shared ring of task states that
 *   both sides change by compare-and-exchange;
 * - cooperative abort of a running task: one BroadcastChannel per pool;
 * - `started`/`progress` messages (only when the caller listens) and WASM faults: the thread's
 *   parentPort, which Piscina re-emits as the pool's `message` event.
 *
 * Batches. A quick task (one whose caller listens to neither its start nor its progress) waits in
 * the pool's own first-in-first-out queue and travels in a batch: while fewer than
 * `threads × TASKS_PER_THREAD` messages are in flight, the queue's head goes out at once, as one
 * message. Alone when the threads keep up (no added latency), several per message when they do
 * not: under load a task costs a fraction of a message each way (one structured clone, one
 * wake-up of the thread, one answer) instead of a whole one. A batch takes at most its share of
 * the queue (queue / threads, at most MAX_BATCH), so that no thread idles while another works
 * through a long batch. Each task of a batch keeps its own time limit, cancellation, started
 * state and outcome; a thread that dies takes none of its siblings' answers with it (they are
 * pure computations: a task not finished when its thread died is run again elsewhere).
 */
import { silentLogger, type Logger } from '../log.ts';
import { BroadcastChannel } from 'node:worker_threads';
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Piscina } from 'piscina';
import type { ThreadConfig } from '../config.ts';
import { threadExecArgv, threadModule, type ThreadModule } from './bundle.ts';
import { AppError } from '../errors.ts';
import {
  SLOT_COUNT, STATE_RING, TASK_CANCELLED, TASK_PENDING, TASK_STARTED, stateIndex,
  type BatchOutcome, type PoolMessage, type ThreadBatch, type ThreadData, type ThreadOutcome, type ThreadTask,
} from './protocol.ts';

export interface RunHooks {
  timeoutMs: number;
  /** Aborted to cancel the task (client cancellation, shutdown). */
  signal?: AbortSignal;
  onStart?: () => void;
  onProgress?: (value: number | Record<string, unknown>) => void;
}

/** A running task: a promise of its value that can also be cancelled and asked whether it started. */
export type TaskRun = Promise<unknown> & { cancel(): void; started(): boolean };

/**
 * A task that runs on the pool's own (main) thread because it coordinates thread tasks rather
 * than doing chemistry itself (catalog structure search splits a scan into range tasks). It
 * receives an abort signal for cancellation and its time limit.
 */
export type LocalTask = (args: unknown, signal: AbortSignal) => Promise<unknown>;

/** How long a cancelled task may take to notice the cooperative abort before its thread is killed. */
const ABORT_GRACE_MS = 1_000;
/**
 * Tasks handed to each thread at once: the next one waits in the thread's port while the current
 * one runs, so a thread never idles while the main thread is busy answering HTTP. A task that was
 * handed to a thread that died before starting it is handed to another one.
 */
const TASKS_PER_THREAD = 2;
/** Most quick tasks in one message. */
const MAX_BATCH = 16;
/**
 * Times a task is handed to another thread after the one holding it died or faulted before running
 * it. The bound only stops a task that would kill every thread it reaches. Deaths for other tasks'
 * sake come in runs: one hostile structure faults several tasks in a row (classification, the
 * catalog's query and scan), each fault ends a thread, and a task queued behind them follows them
 * from thread to thread. With 3, an innocent quick call was answered 500 "worker exited" after
 * the third such fault (issue 3, found by bench/fuzz-api.ts).
 */
const MAX_HAND_OVERS = 8;

interface InFlight {
  seq: number;
  task: string;
  args: unknown;
  hooks: RunHooks;
  handedOver: number;
  /** Settles the task's work with its outcome (batched tasks). */
  resolve?: (v: unknown) => void;
  reject?: (e: unknown) => void;
  /** Why the task was stopped (timeout, cancellation, WASM fault), once it was. */
  reason?: AppError;
  isStarted: boolean;
  /** Ends a task that was stopped before it started, without waiting for Piscina. */
  settle?: (e: AppError) => void;
}

export class ChemPool {
  readonly piscina: Piscina<ThreadTask | ThreadBatch, ThreadOutcome>;
  private readonly slots: Int32Array;
  private readonly states: Uint8Array;
  private readonly channel: BroadcastChannel;
  private readonly inflight = new Map<number, InFlight>();
  private seq = 0;
  private readonly local = new Map<string, LocalTask>();
  /** Quick tasks waiting to go out in a batch, first in first out. */
  private queue: InFlight[] = [];
  private batchesInFlight = 0;
  /** Messages sent to the threads and tasks they carried, since the start (bench/pool.ts, tests). */
  readonly sent = { messages: 0, tasks: 0 };
  /** Threads replaced because their RDKit WebAssembly memory outgrew its bound (shared/threads/thread.ts). */
  retired = 0;
  private readonly size: number;
  /** What the threads load (shared/threads/bundle.ts) and the Node options they start with. */
  readonly code: ThreadModule;
  readonly execArgv: string[] | undefined;

  constructor(threads: number, config: ThreadConfig, log: Logger = silentLogger) {
    this.size = threads;
    const data: ThreadData = {
      config,
      slots: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (1 + 3 * SLOT_COUNT)),
      states: new SharedArrayBuffer(STATE_RING),
      channel: `natprod-pool-${randomUUID()}`,
    };
    this.slots = new Int32Array(data.slots);
    this.states = new Uint8Array(data.states);
    this.channel = new BroadcastChannel(data.channel);
    this.channel.unref();
    // The threads' code as one plain module (shared/threads/bundle.ts): no TypeScript loader per thread.
    this.code = threadModule();
    if (!this.code.bundled) log.warn({ reason: this.code.reason }, 'chemistry threads load the TypeScript sources through tsx (no bundle)');
    // The fallback inherits the process's options as Node does by default (given explicitly, a
    // Worker would refuse V8 flags such as --max-old-space-size).
    this.execArgv = this.code.bundled ? threadExecArgv(process.execArgv) : undefined;
    this.piscina = new Piscina<ThreadTask | ThreadBatch, ThreadOutcome>({
      filename: this.code.url,
      ...(this.execArgv ? { execArgv: this.execArgv } : {}),
      // RDKit takes ~0.5 s to load: keep every thread alive for the life of the pool.
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 2 ** 31 - 1,
      // Tasks arrive already bounded by the runner's queue; never refuse here.
      maxQueue: Infinity,
      // A task that finds every thread busy goes back to the head of the queue, not its tail:
      // first in, first out, so no request waits seconds behind later ones.
      stricterFIFO: true,
      concurrentTasksPerWorker: TASKS_PER_THREAD,
      workerData: data,
    });
    // A thread that dies outside a task (e.g. while loading) is replaced by Piscina; without a
    // listener the event would take the whole process down.
    this.piscina.on('error', (err) => log.error({ err }, 'chemistry thread failed'));
    this.piscina.on('message', (m: PoolMessage) => this.onThreadMessage(m));
  }

  get threads() {
    return this.piscina.threads;
  }

  get utilization() {
    return this.piscina.utilization;
  }

  /** Bytes of each live thread's RDKit WebAssembly memory, as the threads last wrote it. */
  wasmMemory(): number[] {
    const out: number[] = [];
    for (let i = 0; i < SLOT_COUNT; i++) {
      const id = Atomics.load(this.slots, 1 + i);
      if (id && this.piscina.threads.some((w) => w.threadId === id)) out.push(Atomics.load(this.slots, 1 + 2 * SLOT_COUNT + i) * 65_536);
    }
    return out;
  }

  /** Tasks waiting for a thread, and tasks running. */
  load(): { waiting: number; active: number } {
    const waiting = this.piscina.queueSize + this.queue.length;
    return { waiting, active: Math.max(0, this.inflight.size - waiting) };
  }

  private closing = false;

  /** Makes `task` a local task: `run(task, ...)` calls `fn` on this thread (see LocalTask). */
  registerLocal(task: string, fn: LocalTask): void {
    this.local.set(task, fn);
  }

  private router?: (task: string, args: unknown) => LocalTask | undefined;

  /** Sends some calls, chosen by task and arguments, to a local function instead (toolkit sidecars: shared/toolkits). */
  route(fn: (task: string, args: unknown) => LocalTask | undefined): void {
    this.router = fn;
  }

  private runLocal(fn: LocalTask, task: string, args: unknown, hooks: RunHooks): TaskRun {
    const controller = new AbortController();
    // A route may fan out (generate_multiple_descriptors with toolkit=cdk: one RDKit task per
    // molecule), each task listening to this signal until it ends: not a leak, no warning.
    setMaxListeners(0, controller.signal);
    const stop = (e: AppError) => controller.abort(e);
    const onAbort = () => stop(new AppError(499, 'Job cancelled', 'cancelled'));
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new AppError(504, `Task ${task} exceeded its time limit of ${hooks.timeoutMs} ms`, 'timeout')), hooks.timeoutMs);
    timer.unref();
    hooks.onStart?.();
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    const p = Promise.race([fn(args, controller.signal), aborted]).finally(() => {
      clearTimeout(timer);
      hooks.signal?.removeEventListener('abort', onAbort);
    });
    return Object.assign(p, { cancel: onAbort, started: () => true });
  }

  close() {
    this.closing = true;
    return this.piscina.close();
  }

  async destroy() {
    this.closing = true;
    await this.piscina.destroy();
    this.channel.close();
  }

  /**
   * Run one task. Resolves with its value; rejects with an AppError: the task's own (4xx for bad
   * input), 504 on timeout, 499 on cancellation, 422 when RDKit's WASM faulted on the input (the
   * thread is replaced), 500 when the thread died (the pool replaces it).
   */
  run(task: string, args: unknown, hooks: RunHooks): TaskRun {
    const local = this.local.get(task) ?? this.router?.(task, args);
    if (local) return this.runLocal(local, task, args, hooks);
    this.seq = this.seq >= 0x7fffffff ? 1 : this.seq + 1;
    const seq = this.seq;
    Atomics.store(this.states, stateIndex(seq), TASK_PENDING);
    const entry: InFlight = { seq, task, args, hooks, handedOver: 0, isStarted: false };
    this.inflight.set(seq, entry);
    const notify = !!(hooks.onStart || hooks.onProgress);

    const timer = setTimeout(
      () => this.stop(entry, new AppError(504, `Task ${task} exceeded its time limit of ${hooks.timeoutMs} ms`, 'timeout')),
      hooks.timeoutMs,
    );
    timer.unref();
    const onAbort = () => this.stop(entry, new AppError(499, 'Job cancelled', 'cancelled'));
    if (hooks.signal?.aborted) queueMicrotask(onAbort);
    else hooks.signal?.addEventListener('abort', onAbort, { once: true });

    const early = new Promise<never>((_, reject) => {
      entry.settle = reject;
    });
    const attempt = (): Promise<unknown> => {
      this.sent.messages++;
      this.sent.tasks++;
      return this.piscina.run({ task, args: entry.args, seq, notify }).then(
        (outcome) => {
          if (outcome.retire) this.retire(outcome.retire);
          // The outcome can overtake the `started` message: the task did run.
          this.markStarted(entry);
          if (entry.reason) throw entry.reason;
          if (outcome.ok) return outcome.value;
          throw AppError.from(outcome.error) ?? new AppError(500, String(outcome.error));
        },
        (e: unknown) => {
          if (entry.reason) throw entry.reason;
          // It waited in the port of a thread that died (another task's fault or time limit): run it elsewhere.
          if (Atomics.load(this.states, stateIndex(seq)) === TASK_PENDING && !this.closing && entry.handedOver++ < MAX_HAND_OVERS) return attempt();
          // Piscina rejects when the thread exits or crashes under a running task.
          throw threadDied(task, e);
        },
      );
    };
    const work = notify ? attempt() : this.enqueue(entry);
    const done = Promise.race([work, early]).finally(() => {
      clearTimeout(timer);
      hooks.signal?.removeEventListener('abort', onAbort);
      this.inflight.delete(seq);
      // The handle outlives the task (a polled job keeps it for JOB_RESULT_TTL): not its input,
      // which can be a 27 MB PDF in base64 (issue 3).
      entry.args = undefined;
    });
    // The early promise loses the race when the work ends first; its rejection is not an error then.
    early.catch(() => {});
    return Object.assign(done, {
      cancel: onAbort,
      started: () => entry.isStarted || Atomics.load(this.states, stateIndex(seq)) === TASK_STARTED,
    });
  }

  private enqueue(entry: InFlight): Promise<unknown> {
    const work = new Promise<unknown>((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    this.queue.push(entry);
    if (!this.holding) this.pump();
    return work;
  }

  private holding = 0;

  /**
   * Runs `fn`, which starts several tasks, and sends their quick tasks together once it returns:
   * a worker's batch of calls (workers/batch.ts) leaves split over the threads in one message per
   * thread, instead of the first ones alone in a message each. Each task keeps its own answer.
   */
  together<T>(fn: () => T): T {
    this.holding++;
    try {
      return fn();
    } finally {
      if (--this.holding === 0) this.pump();
    }
  }

  /** Sends the queue's head while fewer messages than the threads can hold are in flight. */
  private pump() {
    // The queue's share per thread, taken once: a queue of 15 on 2 threads leaves as 8 and 7.
    const share = Math.min(MAX_BATCH, Math.ceil(this.queue.length / this.size));
    while (this.queue.length && this.batchesInFlight < this.size * TASKS_PER_THREAD) {
      // Tasks stopped while queued were answered already (stop() settles them).
      const batch = this.queue.splice(0, share).filter((e) => !e.reason);
      if (!batch.length) continue;
      this.batchesInFlight++;
      this.sent.messages++;
      this.sent.tasks += batch.length;
      const message = { batch: batch.map((e) => ({ task: e.task, args: e.args, seq: e.seq, notify: false })) };
      (this.piscina.run(message) as unknown as Promise<BatchOutcome[]>).then(
        (outcomes) => {
          this.batchesInFlight--;
          const retire = outcomes[outcomes.length - 1];
          if (retire && 'retire' in retire && retire.retire) this.retire(retire.retire);
          batch.forEach((e, i) => this.settleBatched(e, outcomes[i]));
          this.pump();
        },
        (err: unknown) => {
          this.batchesInFlight--;
          // The thread died under the batch. When one of its tasks was stopped (time limit,
          // cancellation), that task was the cause: the others are run again elsewhere, whether or
          // not they had run. Otherwise only those that never started are.
          const stopped = batch.some((e) => e.reason);
          for (const e of batch) {
            if (e.reason) e.reject!(e.reason);
            else if ((stopped || Atomics.load(this.states, stateIndex(e.seq)) === TASK_PENDING) && !this.closing && e.handedOver++ < MAX_HAND_OVERS) this.requeue(e);
            else e.reject!(threadDied(e.task, err));
          }
          this.pump();
        },
      );
    }
  }

  /** Back to the head of the queue, pending again. */
  private requeue(entry: InFlight) {
    Atomics.store(this.states, stateIndex(entry.seq), TASK_PENDING);
    this.queue.unshift(entry);
  }

  private settleBatched(entry: InFlight, outcome: BatchOutcome | undefined) {
    if (!outcome) return entry.reject!(new AppError(500, `No answer for task ${entry.task} in its batch`, 'worker_crash'));
    if ('notStarted' in outcome) {
      if (entry.reason) return entry.reject!(entry.reason);
      if (!this.closing && entry.handedOver++ < MAX_HAND_OVERS) return this.requeue(entry);
      return entry.reject!(new AppError(500, `Task ${entry.task} found no working thread`, 'worker_crash'));
    }
    this.markStarted(entry);
    if ('fault' in outcome) {
      entry.reason ??= wasmFaultError(outcome.fault);
      const thread = this.piscina.threads.find((w) => w.threadId === outcome.threadId);
      if (thread) void thread.terminate();
      return entry.reject!(entry.reason);
    }
    if (entry.reason) return entry.reject!(entry.reason);
    if (outcome.ok) return entry.resolve!(outcome.value);
    entry.reject!(AppError.from(outcome.error) ?? new AppError(500, String(outcome.error)));
  }

  private markStarted(entry: InFlight) {
    if (entry.isStarted) return;
    entry.isStarted = true;
    entry.hooks.onStart?.();
  }

  /** Terminates a thread that asked to be replaced (Piscina starts a fresh one). */
  private retire(threadId: number) {
    const thread = this.piscina.threads.find((w) => w.threadId === threadId);
    if (!thread) return;
    this.retired++;
    void thread.terminate();
  }

  /** Index of the slot whose thread is running task `seq`, or -1. */
  private slotOf(seq: number): number {
    for (let i = 0; i < SLOT_COUNT; i++) if (Atomics.load(this.slots, 1 + SLOT_COUNT + i) === seq) return i;
    return -1;
  }

  private threadOf(slot: number) {
    const id = Atomics.load(this.slots, 1 + slot);
    return this.piscina.threads.find((w) => w.threadId === id);
  }

  /** Stop a task (timeout or cancellation): skip it if queued, ask it to abort if running, then kill its thread. */
  private stop(entry: InFlight, why: AppError) {
    if (entry.reason || !this.inflight.has(entry.seq)) return;
    entry.reason = why;
    // Not started yet: it is cancelled now, and the thread that gets it will skip it.
    if (Atomics.compareExchange(this.states, stateIndex(entry.seq), TASK_PENDING, TASK_CANCELLED) !== TASK_STARTED) {
      entry.settle?.(why);
      return;
    }
    this.channel.postMessage({ type: 'abort', seq: entry.seq });
    setTimeout(() => {
      if (!this.inflight.has(entry.seq)) return;
      const slot = this.slotOf(entry.seq);
      const thread = slot >= 0 ? this.threadOf(slot) : undefined;
      // Piscina sees the thread exit, rejects its task (with our reason) and starts a new thread.
      if (thread) void thread.terminate();
      else entry.settle?.(why);
    }, ABORT_GRACE_MS).unref();
  }

  private onThreadMessage(m: PoolMessage) {
    if (!m || typeof m !== 'object' || !('natprod' in m)) return;
    const entry = this.inflight.get(m.seq);
    if (!entry) return;
    if (m.natprod === 'started') this.markStarted(entry);
    else if (m.natprod === 'progress') entry.hooks.onProgress?.(m.value);
    else if (m.natprod === 'fault') {
      // RDKit's WASM trapped on this input: answer it as unprocessable (never retried) and
      // terminate the thread at once, since its module is no longer trustworthy.
      entry.reason ??= wasmFaultError(m.detail);
      const thread = this.piscina.threads.find((w) => w.threadId === m.threadId);
      if (thread) void thread.terminate();
      else entry.settle?.(entry.reason);
    }
  }
}

const wasmFaultError = (detail: string) =>
  new AppError(422, `RDKit could not process this structure (WebAssembly fault: ${detail}); it is probably too large or too deeply nested`, 'wasm_fault');

const threadDied = (task: string, e: unknown) =>
  AppError.from(e) ?? new AppError(500, `Worker thread failed while running ${task}: ${(e as Error)?.message ?? e}`, 'worker_crash');

/** A pool of `threads` chemistry threads, each given `config` (the process's, see threadConfig). */
export function createPool(threads: number, config: ThreadConfig, log?: Logger): ChemPool {
  return new ChemPool(threads, config, log);
}

/** Run one task on the pool (see ChemPool.run). */
export function runTask(pool: ChemPool, task: string, args: unknown, hooks: RunHooks): TaskRun {
  return pool.run(task, args, hooks);
}
