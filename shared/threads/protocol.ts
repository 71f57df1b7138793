import type { ThreadConfig } from '../config.ts';

/**
 * What the pool (main side) and its chemistry threads share: the task message, the outcome, the
 * thread's messages on its parentPort, and the layout of the shared memory (see shared/threads/pool.ts).
 */

/** Thread slots in the shared array: more than any pool's thread count, including replacements alive at once. */
export const SLOT_COUNT = 64;
/**
 * State of each task, indexed by task number modulo this size (a power of two): 0 pending,
 * 1 cancelled (the pool, before a thread took it), 2 started (the thread). Both sides change a
 * cell only by compare-and-exchange from 0, so exactly one of "cancelled" and "started" wins.
 * The size covers far more tasks than can be pending within the longest time limit.
 */
export const STATE_RING = 1 << 20;
export const TASK_PENDING = 0;
export const TASK_CANCELLED = 1;
export const TASK_STARTED = 2;

export const stateIndex = (seq: number) => seq & (STATE_RING - 1);

/**
 * Given to every thread at start (Piscina's workerData).
 * `slots` (Int32): [0] the next free slot; [1 + i] the threadId in slot i; [1 + SLOT_COUNT + i] the task number slot i runs (0: none);
 * [1 + 2 * SLOT_COUNT + i] the WebAssembly memory of slot i's RDKit in 64 KiB pages (written after each task).
 */
export interface ThreadData {
  /** The configuration tasks read (TaskContext.config) and the heavy-atom limit of RDKit's readers. */
  config: ThreadConfig;
  slots: SharedArrayBuffer;
  /** Uint8 task states, see STATE_RING. */
  states: SharedArrayBuffer;
  /** BroadcastChannel name on which the pool sends `{type: 'abort', seq}`. */
  channel: string;
}

export interface ThreadTask {
  task: string;
  args: unknown;
  /** The pool's number of this task (never 0). */
  seq: number;
  /** Send `started` and `progress` messages (someone listens). */
  notify: boolean;
}

/**
 * `retire` (the thread's id) rides on the last outcome a thread answers before it asks to be
 * replaced: its RDKit WebAssembly memory grew past the bound (shared/threads/thread.ts). The thread
 * starts nothing after it; the pool terminates it once the outcome is in.
 */
export type ThreadOutcome = ({ ok: true; value: unknown } | { ok: false; error: unknown }) & { retire?: number };

/**
 * Several quick tasks in one Piscina message (shared/threads/pool.ts, "Batches"): the thread runs them
 * in order and answers one outcome per task, in the same order.
 */
export interface ThreadBatch {
  batch: ThreadTask[];
}

/**
 * The outcome of one task of a batch: its own, or `notStarted` (the thread's RDKit faulted under
 * an earlier task, so it left this one pending for another thread), or `fault` (RDKit's WASM
 * trapped during this very task: the thread must be replaced).
 */
export type BatchOutcome =
  | ThreadOutcome
  | { ok: false; notStarted: true }
  | { ok: false; fault: string; threadId: number };

export type PoolMessage =
  | { natprod: 'started'; seq: number }
  | { natprod: 'progress'; seq: number; value: number | Record<string, unknown> }
  | { natprod: 'fault'; seq: number; threadId: number; detail: string };
