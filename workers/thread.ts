/**
 * Entry of a chemistry worker thread (Piscina). RDKit WASM is loaded once per thread, at module
 * load; each task is dispatched by name from the task table. The main side talks to a running
 * task over a MessagePort: it receives `started` and `progress` messages and may send `abort`
 * (cooperative cancellation; a task stuck in WASM is terminated by Piscina instead).
 * A task during which RDKit's WASM faulted reports a `fault` and waits: the main side then has
 * Piscina terminate the thread, and a fresh one (with a fresh RDKit) takes its place.
 */
import type { MessagePort } from 'node:worker_threads';
import { loadRDKit, rdkitFault } from '../shared/chem/rdkit.ts';
import { AppError } from '../shared/errors.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';

export interface ThreadTask {
  task: string;
  args: unknown;
  port: MessagePort;
}

export type ThreadMessage =
  | { type: 'started' }
  | { type: 'progress'; value: number | Record<string, unknown> }
  | { type: 'fault'; detail: string };

export type ThreadOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const rdkit = await loadRDKit();

export default async function run({ task, args, port }: ThreadTask): Promise<ThreadOutcome> {
  const controller = new AbortController();
  port.on('message', (m: { type?: string }) => {
    if (m?.type === 'abort') controller.abort(new AppError(499, 'Job cancelled', 'cancelled'));
  });
  const ctx: TaskContext = {
    rdkit,
    signal: controller.signal,
    progress: (value) => port.postMessage({ type: 'progress', value } satisfies ThreadMessage),
  };
  port.postMessage({ type: 'started' } satisfies ThreadMessage);
  try {
    const handler = TASKS[task];
    if (!handler) throw new AppError(500, `No worker task named ${task}`, 'no_handler');
    return { ok: true, value: await handler(args, ctx) };
  } catch (e) {
    // Errors cross the thread boundary as plain data: an AppError keeps its status; anything
    // else is an internal fault whose message is kept for the logs.
    const app = AppError.from(e);
    if (app) return { ok: false, error: app.toJSON() };
    const err = e as Error;
    return { ok: false, error: { status: 500, detail: `Internal error in task ${task}: ${err?.message ?? String(e)}`, code: 'internal' } };
  } finally {
    const fault = rdkitFault();
    if (fault) {
      // Whatever the task answered was computed by a broken module: report the fault instead,
      // and never finish, so that this thread is terminated rather than reused.
      port.postMessage({ type: 'fault', detail: fault.message } satisfies ThreadMessage);
      await new Promise(() => {});
    }
    port.close();
  }
}
