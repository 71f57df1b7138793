/**
 * Entry of a chemistry worker thread (Piscina). RDKit WASM is loaded once per thread, at module
 * load; each task is dispatched by name from the task table. The thread records in shared memory
 * that a task started and which task it runs (so the pool can terminate it if the task outlives
 * its limit), skips a task cancelled while queued, and listens on the pool's channel for a
 * cooperative abort.
 * A message is one task, or a batch of quick tasks run in order (shared/threads/pool.ts, "Batches").
 * A task during which RDKit's WASM faulted reports a `fault` (a message of its own, or its place
 * in the batch's answer, the rest of the batch left pending) and the thread takes nothing more:
 * the pool terminates it, and a fresh one (with a fresh RDKit) takes its place.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BroadcastChannel, parentPort, threadId, workerData } from 'node:worker_threads';
import { configureRDKit, loadRDKit, rdkitFault, wasmMemoryBytes } from '../chem/core/rdkit.ts';
import { AppError } from '../errors.ts';
import { TASKS } from '../ops/tasks.ts';
import type { TaskContext } from '../ops/types.ts';
import {
  SLOT_COUNT, TASK_CANCELLED, TASK_PENDING, TASK_STARTED, stateIndex,
  type BatchOutcome, type PoolMessage, type ThreadBatch, type ThreadData, type ThreadOutcome, type ThreadTask,
} from './protocol.ts';

export type { ThreadOutcome, ThreadTask };

const data = workerData as ThreadData;
const config = data.config;
// Below the main threads that hand the work around (shared/config.ts, THREAD_NICE). Linux only:
// a thread's id is the last part of /proc/thread-self; elsewhere the thread keeps its niceness.
if (config.THREAD_NICE > 0) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), config.THREAD_NICE);
  } catch {
    // not Linux, or no /proc: nothing to lower
  }
}
configureRDKit({ maxHeavyAtoms: config.MAX_HEAVY_ATOMS });
const rdkit = await loadRDKit();

const slots = new Int32Array(data.slots);
const states = new Uint8Array(data.states);
const slot = Atomics.add(slots, 0, 1) % SLOT_COUNT;
const running = 1 + SLOT_COUNT + slot;
Atomics.store(slots, 1 + slot, threadId);
Atomics.store(slots, running, 0);
const wasmPages = 1 + 2 * SLOT_COUNT + slot;
Atomics.store(slots, wasmPages, wasmMemoryBytes() / 65_536);

/** The task running now; `aborted` is its controller once the task asked for its signal. */
let current: { seq: number; aborted?: AbortController; abortRequested?: boolean } | undefined;
const channel = new BroadcastChannel(data.channel);
channel.unref();
channel.onmessage = (ev) => {
  const m = (ev as { data?: { type?: string; seq?: number } }).data;
  if (m?.type !== 'abort' || !current || m.seq !== current.seq) return;
  current.abortRequested = true;
  current.aborted?.abort(new AppError(499, 'Job cancelled', 'cancelled'));
};

const post = (m: PoolMessage) => parentPort!.postMessage(m);

/**
 * A full garbage collection of this thread's heap once the garbage it promoted reaches
 * HEAP_SLACK bytes beyond what survived the last one, checked every HEAP_CHECK tasks, between
 * messages. Quick tasks keep only a few hundred bytes each alive across a minor collection (the
 * batch in flight), but V8 lets a thread's old generation grow by tens of megabytes before it
 * collects it: RSS then climbed ~110 MB over 420,000 pool tasks before falling back (2 threads,
 * canonical SMILES), and a reading of memory after 50,000 or 500,000 requests landed anywhere
 * on that saw-tooth.
 */
const HEAP_CHECK = 512;
const HEAP_SLACK = 24 * 1024 * 1024;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
let tasksSinceCheck = 0;
let heapFloor = getHeapStatistics().used_heap_size;
function collectIfGrown(tasks: number) {
  tasksSinceCheck += tasks;
  if (tasksSinceCheck < HEAP_CHECK) return;
  tasksSinceCheck = 0;
  if (getHeapStatistics().used_heap_size < heapFloor + HEAP_SLACK) return;
  collect();
  heapFloor = getHeapStatistics().used_heap_size;
}

/**
 * A WebAssembly memory grows and never shrinks: one input that makes RDKit allocate much (the
 * largest structures, tables sized by a molblock's counts) would keep the thread's memory, and
 * the process's RSS, at that height for good (issue 3: 16 → 51 MiB per thread over a fuzz run).
 * A thread whose RDKit memory grew past WASM_RETIRE_FACTOR times what it started with asks to be
 * replaced after the task that grew it: the request rides on that task's outcome (so the pool
 * has the answer before it terminates the thread), and the thread starts nothing after it (a
 * task already handed to it is handed to another thread, as after a fault). A fresh thread
 * starts at the initial size.
 */
const WASM_RETIRE_FACTOR = 2;
const wasmAtStart = wasmMemoryBytes();
let retiring = false;

function retireIfGrown<T extends ThreadOutcome | BatchOutcome[]>(outcome: T): T {
  // A faulted module is replaced anyway (the fault path); a retiring thread asked already.
  if (retiring || rdkitFault() || wasmMemoryBytes() <= WASM_RETIRE_FACTOR * wasmAtStart) return outcome;
  const last = Array.isArray(outcome) ? outcome[outcome.length - 1] : outcome;
  if (!last || 'fault' in last || 'notStarted' in last) return outcome;
  retiring = true;
  (last as ThreadOutcome).retire = threadId;
  return outcome;
}

/**
 * One task at a time, even when a task awaits (PDF reading, network lookups, structure
 * generation): the second task handed to this thread stays unstarted until the first ends, as it
 * does behind a synchronous task. Otherwise it would run meanwhile, and a thread terminated for
 * one task's WASM fault or time limit would take the other, started task (and its 500) with it.
 */
let turn: Promise<unknown> = Promise.resolve();
export default function run(t: ThreadTask | ThreadBatch): Promise<ThreadOutcome | BatchOutcome[]> {
  const outcome = turn.then(async (): Promise<ThreadOutcome | BatchOutcome[]> => {
    collectIfGrown('batch' in t ? t.batch.length : 1);
    return retireIfGrown('batch' in t ? await runBatch(t.batch) : await runSingle(t));
  });
  turn = outcome.catch(() => {});
  return outcome;
}

const never = () => new Promise<never>(() => {});

async function runSingle(t: ThreadTask): Promise<ThreadOutcome> {
  // This thread's module faulted under an earlier task, or the thread asked to be replaced, and
  // the pool is about to terminate it: leave the task unstarted, so that it is handed to another thread.
  if (rdkitFault() || retiring) return never();
  const { outcome, fault } = await runOne(t);
  if (fault) {
    // Whatever the task answered was computed by a broken module: report the fault instead,
    // and never finish, so that this thread is terminated rather than reused.
    post({ natprod: 'fault', seq: t.seq, threadId, detail: fault });
    return never();
  }
  return outcome;
}

/**
 * The tasks of a batch one after the other. After a WASM fault the rest are left pending and the
 * answer says so: the pool hands them to another thread and replaces this one.
 */
async function runBatch(tasks: ThreadTask[]): Promise<BatchOutcome[]> {
  const out: BatchOutcome[] = [];
  for (const t of tasks) {
    if (rdkitFault() || retiring) {
      out.push({ ok: false, notStarted: true });
      continue;
    }
    const { outcome, fault } = await runOne(t);
    out.push(fault ? { ok: false, fault, threadId } : outcome);
  }
  return out;
}

/** Runs one task; `fault` is set when RDKit's WASM faulted during it (the outcome is then void). */
async function runOne({ task, args, seq, notify }: ThreadTask): Promise<{ outcome: ThreadOutcome; fault?: string }> {
  // Either the pool cancelled this task before any thread took it, or it is started now.
  if (Atomics.compareExchange(states, stateIndex(seq), TASK_PENDING, TASK_STARTED) === TASK_CANCELLED) {
    return { outcome: { ok: false, error: new AppError(499, 'Job cancelled', 'cancelled').toJSON() } };
  }
  Atomics.store(slots, running, seq);
  // Most quick tasks never look at their signal: its controller is made on first use.
  let controller: AbortController | undefined;
  const signal = () => {
    if (!controller) {
      controller = new AbortController();
      if (current?.seq === seq) {
        current.aborted = controller;
        if (current.abortRequested) controller.abort(new AppError(499, 'Job cancelled', 'cancelled'));
      }
    }
    return controller.signal;
  };
  current = { seq };
  const ctx: TaskContext = {
    rdkit,
    config,
    get signal() {
      return signal();
    },
    progress: notify ? (value) => post({ natprod: 'progress', seq, value }) : () => {},
  };
  if (notify) post({ natprod: 'started', seq });
  let outcome: ThreadOutcome;
  try {
    const handler = TASKS[task];
    if (!handler) throw new AppError(500, `No worker task named ${task}`, 'no_handler');
    outcome = { ok: true, value: await handler(args, ctx) };
  } catch (e) {
    // Errors cross the thread boundary as plain data: an AppError keeps its status; anything
    // else is an internal fault whose message is kept for the logs.
    const app = AppError.from(e);
    const err = e as Error;
    outcome = app
      ? { ok: false, error: app.toJSON() }
      : { ok: false, error: { status: 500, detail: `Internal error in task ${task}: ${err?.message ?? String(e)}`, code: 'internal' } };
  }
  const fault = rdkitFault();
  // A faulted thread keeps its slot's task number: the pool is about to terminate it.
  if (fault) return { outcome, fault: fault.message };
  if (current?.seq === seq) current = undefined;
  Atomics.compareExchange(slots, running, seq, 0);
  Atomics.store(slots, wasmPages, wasmMemoryBytes() / 65_536);
  return { outcome };
}
