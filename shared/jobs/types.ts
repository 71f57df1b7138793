/**
 * The job-runner port. Two implementations (inline: Piscina in the api process; bullmq:
 * Redis queues consumed by worker processes) share this contract and one contract test suite.
 */
import type { SerializedAppError } from '../errors.ts';
import type { TaskArgs, TaskName, TaskResult } from '../ops/task-types.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRecord {
  id: string;
  op: string;
  status: JobStatus;
  progress: number | Record<string, unknown>;
  /** Times a worker started this job (more than 1 after a retry or a stalled-job recovery). */
  attempts: number;
  result?: unknown;
  error?: SerializedAppError;
  created_at: string;
  started_at?: string;
  finished_at?: string;
}

export interface SubmitOptions {
  /** Long jobs use their own queue and the long timeout. */
  mode?: 'quick' | 'long';
  /** Per-job timeout override in ms. */
  timeoutMs?: number;
  /**
   * Idempotency key: when a job with this id exists and has not failed or been cancelled, it is
   * returned instead of a new one (same structure classified twice → one job, one result).
   */
  jobId?: string;
}

export type RunOptions = SubmitOptions & {
  waitMs?: number;
  /**
   * Distributed runner: a queue of its own instead of the common ones, for calls only some workers
   * can answer (a structure-search shard's, shared/structure-search/shards.ts); each such call
   * travels alone and is answered like a batched quick call. The inline runner has one process
   * and ignores it.
   */
  queue?: string;
};

export interface QueueDepth {
  queue: string;
  waiting: number;
  active: number;
}

export interface JobRunner {
  readonly kind: 'inline' | 'bullmq';
  /** Queue a task by name with its (already validated) arguments. */
  submit(op: string, task: string, args: unknown, opts?: SubmitOptions): Promise<JobRecord>;
  /** Wait for a job to finish; resolves with the final record, or the current one on timeout. */
  wait(id: string, timeoutMs: number): Promise<JobRecord>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Cancel a queued or running job; returns the record after the attempt. */
  cancel(id: string): Promise<JobRecord | undefined>;
  /**
   * Submit and wait; throws AppError for a failed job, 504 naming the job on timeout. Untyped: for
   * the registry's generic path (`executeOp` runs `op.task` with the operation's validated arguments).
   */
  run(op: string, task: string, args: unknown, opts?: RunOptions): Promise<unknown>;
  /**
   * `run` checked at compile time (shared/ops/task-types.ts): the task must exist, `args` must have
   * its argument shape, and the answer has its result type. Every call naming a task in code uses this.
   */
  runTask<N extends TaskName>(op: string, task: N, args: TaskArgs<N>, opts?: RunOptions): Promise<TaskResult<N>>;
  /** `submit` checked at compile time, as runTask. */
  submitTask<N extends TaskName>(op: string, task: N, args: TaskArgs<N>, opts?: SubmitOptions): Promise<JobRecord>;
  /** Jobs waiting and running per queue (for the queue-depth gauges). */
  depth(): Promise<QueueDepth[]>;
  close(): Promise<void>;
}
