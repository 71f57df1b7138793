/**
 * Quick calls awaited by the api, carried several to a BullMQ job (distributed mode).
 *
 * A call is sent at once while the workers have a thread without a call: fewer calls in flight
 * than `threads()` (the worker threads that announced themselves), or none at all. Otherwise
 * calls wait here, and whenever a batch comes back the waiting calls leave together, split over
 * the free places (at most `threads()` batches in flight). Under light load every call is a batch
 * of one (no added latency); under saturation the Redis round trips and BullMQ's bookkeeping are
 * paid once per batch instead of once per call. Calls leave in arrival order.
 *
 * Measured (docs/performance.md, 2026-11-26 evening): with twice as many places as threads and no
 * gate on calls, every call that arrived just after a batch came back found a free place and left
 * alone: under load 1,370 of 2,000 batches were single calls, each paying a whole job. A worker
 * runs a batch's calls on all its threads at once, so one place per thread keeps them busy.
 *
 * The gate on calls applies to arrivals only. When a batch comes back, the calls waiting leave at
 * once even though other batches (more calls than threads) are still out: measured 2026-11-27 on
 * 16 cores (bench/scale), waiting for the calls in flight to drop below the thread count made the
 * batches go out in waves, and every worker idled between waves (workers 61-64 % busy, 8 workers of
 * one thread gave 5.2x one worker on canonical SMILES).
 */
import { AppError } from '../errors.ts';
import { callId, queueUnavailable, type BatchCall, type CallOutcome } from './queues.ts';

export interface PendingCall {
  call: BatchCall;
  resolve: (o: CallOutcome) => void;
  /** Set once the call left in a batch. */
  batchId?: string;
  index?: number;
  /** The caller stopped waiting (504 naming the call): its record must outlive the answer. */
  late?: boolean;
}

export interface BatchSink {
  /** Queue one batch job with these calls. */
  add(batchId: string, calls: BatchCall[]): Promise<void>;
  /** Worker threads that announced themselves: the most batches in flight, and the calls in flight beyond which new calls wait for a batch to return. */
  threads(): number;
  newId(): string;
  /** A late call's outcome, to be kept where GET /jobs/{id} finds it. */
  keep(id: string, call: BatchCall, outcome: CallOutcome): void;
}

/** Most calls in one batch: bounds the job's size and the time one worker holds it. */
const MAX_BATCH = 64;
/**
 * A batch in flight longer than this no longer holds its place nor counts against the gate: its
 * worker may have died (BullMQ hands the batch to another worker only once its lock expired and a
 * stalled check ran, tens of seconds), and the calls behind it must not wait for that. Batches
 * come back within milliseconds under saturation.
 */
export const HELD_MS = 1_000;

export class Batcher {
  private readonly waiting: PendingCall[] = [];
  private readonly inflight = new Map<string, { calls: PendingCall[]; sent: number }>();
  /** Pump again when the oldest held batch stops holding (calls are waiting behind it). */
  private recheck: NodeJS.Timeout | undefined;

  constructor(private readonly sink: BatchSink) {}

  /** Queue a call; resolves with its outcome (never rejects). */
  submit(call: BatchCall): PendingCall & { outcome: Promise<CallOutcome> } {
    let resolve!: (o: CallOutcome) => void;
    const outcome = new Promise<CallOutcome>((r) => {
      resolve = r;
    });
    const p: PendingCall = { call, resolve };
    this.waiting.push(p);
    this.pump(false);
    return Object.assign(p, { outcome });
  }

  /** Take back a call that has not left yet (it outlived its wait here); false when it already left. */
  withdraw(p: PendingCall): boolean {
    const i = this.waiting.indexOf(p);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  /**
   * The queue became unreachable: every call still waiting here fails with `error` at once (it
   * would otherwise wait for a free place behind batches that cannot come back before Redis does).
   * Batches in flight keep waiting for their answers.
   */
  failWaiting(error: AppError) {
    for (const p of this.waiting.splice(0)) p.resolve({ ok: false, error: error.toJSON() });
  }

  /** Batches in flight, oldest first, with the time they were sent. */
  pendingBatches(): { batchId: string; sent: number }[] {
    return [...this.inflight].map(([batchId, b]) => ({ batchId, sent: b.sent }));
  }

  /** A batch's job ended: hand each call its outcome. */
  complete(batchId: string, outcomes: unknown) {
    const b = this.inflight.get(batchId);
    if (!b) return;
    this.inflight.delete(batchId);
    const list = Array.isArray(outcomes) ? (outcomes as CallOutcome[]) : [];
    b.calls.forEach((p, i) => this.settle(p, list[i] ?? { ok: false, error: new AppError(500, `Batch ${batchId} returned no outcome for call ${i}`, 'internal').toJSON() }));
    this.pump(true);
  }

  /** A batch's job failed for good (or was lost): every call of it fails with that error. */
  fail(batchId: string, error: AppError) {
    const b = this.inflight.get(batchId);
    if (!b) return;
    this.inflight.delete(batchId);
    for (const p of b.calls) this.settle(p, { ok: false, error: error.toJSON() });
    this.pump(true);
  }

  private settle(p: PendingCall, o: CallOutcome) {
    if (p.late && p.batchId !== undefined) this.sink.keep(callId(p.batchId, p.index!), p.call, o);
    p.resolve(o);
  }

  /**
   * Send what may leave. `released`: a batch came back (or stopped holding its place), so a thread
   * is about to run out of calls: the waiting calls leave now, whatever else is still in flight.
   * Otherwise (a call arrived) a call leaves at once only while a thread has no call at all.
   */
  private pump(released: boolean) {
    // The batches that hold a place: those sent less than HELD_MS ago.
    const now = Date.now();
    let held = 0;
    let calls = 0;
    let oldest = Infinity;
    for (const b of this.inflight.values()) {
      if (now - b.sent >= HELD_MS) continue;
      held++;
      calls += b.calls.length;
      oldest = Math.min(oldest, b.sent);
    }
    const threads = this.sink.threads();
    if (this.waiting.length && held > 0 && ((!released && calls >= threads) || held >= threads)) {
      this.recheck ??= setTimeout(() => {
        this.recheck = undefined;
        this.pump(true);
      }, oldest + HELD_MS - now).unref();
      return;
    }
    while (this.waiting.length && held < threads) {
      const size = Math.min(MAX_BATCH, Math.ceil(this.waiting.length / (threads - held)));
      const batch = this.waiting.splice(0, size);
      const batchId = this.sink.newId();
      batch.forEach((p, i) => {
        p.batchId = batchId;
        p.index = i;
      });
      this.inflight.set(batchId, { calls: batch, sent: now });
      held++;
      this.sink.add(batchId, batch.map((p) => p.call)).catch((e: unknown) => {
        this.fail(batchId, queueUnavailable(e));
      });
    }
  }
}
