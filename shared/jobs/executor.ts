/**
 * What a runner needs to execute one task: the Piscina pool's `runTask` satisfies it, so the
 * runners (shared/jobs) do not depend on the worker package.
 */
export interface ExecuteHooks {
  timeoutMs: number;
  signal?: AbortSignal;
  onStart?: () => void;
  onProgress?: (value: number | Record<string, unknown>) => void;
}

/**
 * A running task: its value, and (when the executor can) a way to cancel it and to ask whether a
 * thread has started it. The pool's runs have both; a plain promise is accepted too (tests).
 */
export type TaskRunHandle = Promise<unknown> & { cancel?(): void; started?(): boolean };

export type TaskExecutor = (task: string, args: unknown, hooks: ExecuteHooks) => TaskRunHandle;

/** Told when a job ends (and, in the distributed mode's api, when a batch of quick calls leaves), for metrics. */
export interface JobObserver {
  finished(op: string, status: 'succeeded' | 'failed' | 'cancelled', seconds: number): void;
  /** A batch of `calls` quick calls was queued; `idle`: no other batch of this api was in flight. */
  batched?(calls: number, idle: boolean): void;
}

export interface RunnerTimeouts {
  /** Hard limit of a quick task on a thread. */
  quickMs: number;
  /** Hard limit of a long task on a thread. */
  longMs: number;
  /** How long `run()` waits for a quick job before answering 504 with the job id. */
  waitMs: number;
  /** Seconds a finished job stays readable. */
  resultTtlSeconds: number;
}
