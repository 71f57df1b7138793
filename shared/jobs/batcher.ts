/**
 * Quick calls awaited by the api, carried several to a BullMQ job (distributed mode).
 *
 * Each worker process takes two batches at a time: the one its threads run (a batch's calls go to
 * all of them) and the next one, so that the next is already there when the first is done and its
 * threads never wait for a round trip through Redis. The api keeps at most two batches in flight
 * per worker process (its `places`). A call leaves at once when nothing is in flight; otherwise
 * calls wait here until they make a full batch: the calls in this process (smoothed over the
 * batches that came back) divided by the places, rounded down. Under a steady load of N calls that is N / places
 * calls, the ones that follow the answers of the batch that just came back: each batch is replaced
 * by one of the same size while the worker still runs the other one. Under light load every call is
 * a batch of one (no added latency); under saturation the Redis round trips and BullMQ's
 * bookkeeping are paid once per batch instead of once per call. Calls leave in arrival order.
 *
 * Measured (docs/performance.md, "The distributed mode against the original on 2 cores"):
 * - 2026-11-26: with more places than threads and no wait for a full batch, a call that arrived
 *   just after a batch came back left alone (1,370 of 2,000 batches were single calls).
 * - 2026-11-27 (16 cores): holding calls until the calls in flight fell below the thread count made
 *   the batches go out in waves and the workers idle between them.
 * - 2026-11-27 (2 cores, 1 worker of 2 threads, 32 clients): one place per thread and a call sent
 *   whenever a thread had none gave batches of 11 on average, a third of them single calls, and
 *   often nothing in flight (the batches synchronised: one large, one of a single call); the full
 *   batch rule gives 14-16 calls per batch and 6-20 % more requests per second.
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
  /** Queue one batch job with these calls; `idle`: no other batch was in flight when it left. */
  add(batchId: string, calls: BatchCall[], idle: boolean): Promise<void>;
  /** This api's share of the batches in flight: two per worker process (see above). */
  places(): number;
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
    this.pump();
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
    this.sampleLoad();
    this.inflight.delete(batchId);
    const list = Array.isArray(outcomes) ? (outcomes as CallOutcome[]) : [];
    b.calls.forEach((p, i) => this.settle(p, list[i] ?? { ok: false, error: new AppError(500, `Batch ${batchId} returned no outcome for call ${i}`, 'internal').toJSON() }));
    this.pump();
  }

  /** A batch's job failed for good (or was lost): every call of it fails with that error. */
  fail(batchId: string, error: AppError) {
    const b = this.inflight.get(batchId);
    if (!b) return;
    this.inflight.delete(batchId);
    for (const p of b.calls) this.settle(p, { ok: false, error: error.toJSON() });
    this.pump();
  }

  /**
   * The calls in this process (in flight and waiting), smoothed over the batches that came back:
   * under a steady load (e.g. N clients that each send their next call when answered) it is N, where
   * a count taken when calls arrive misses those whose answer is on its way back.
   */
  private load = 0;
  private sampleLoad() {
    let calls = this.waiting.length;
    for (const b of this.inflight.values()) calls += b.calls.length;
    this.load += (calls - this.load) / 4;
  }

  private settle(p: PendingCall, o: CallOutcome) {
    if (p.late && p.batchId !== undefined) this.sink.keep(callId(p.batchId, p.index!), p.call, o);
    p.resolve(o);
  }

  /**
   * Send what may leave (after a call arrived, a batch came back or one stopped holding its place).
   * The batches that hold a place are those sent less than HELD_MS ago. With a free place, the
   * waiting calls leave when nothing holds a place (the workers would idle: all of them, split into
   * full batches over the free places) or once they make a full batch. Without a free place they
   * wait for a batch to come back (or to stop holding its place).
   */
  private pump() {
    const now = Date.now();
    let held = 0;
    let oldest = Infinity;
    for (const b of this.inflight.values()) {
      if (now - b.sent >= HELD_MS) continue;
      held++;
      oldest = Math.min(oldest, b.sent);
    }
    const places = this.sink.places();
    // A full batch: this process's calls (smoothed) shared over the places, rounded down, never
    // more than the smallest batch of a steady load brings back (N = 33 on 2 places: 16). The half
    // call absorbs the smoothing: a load that settles from above onto N must not ask N / places + 1
    // (2 clients after a burst would then wait for each other for good).
    const share = Math.max(1, Math.min(MAX_BATCH, Math.floor((this.load + 0.5) / places)));
    const free = places - held;
    if (this.waiting.length && free > 0 && (held === 0 || this.waiting.length >= share)) {
      const k = Math.max(1, Math.min(free, Math.floor(this.waiting.length / share)));
      const size = Math.min(MAX_BATCH, Math.ceil(this.waiting.length / k));
      for (let i = 0; i < k && this.waiting.length; i++) {
        this.send(this.waiting.splice(0, size), now);
        held++;
        oldest = Math.min(oldest, now);
      }
    }
    if (this.waiting.length && held > 0) {
      this.recheck ??= setTimeout(() => {
        this.recheck = undefined;
        this.pump();
      }, oldest + HELD_MS - now).unref();
    }
  }

  private send(batch: PendingCall[], now: number) {
    const batchId = this.sink.newId();
    batch.forEach((p, i) => {
      p.batchId = batchId;
      p.index = i;
    });
    const idle = this.inflight.size === 0;
    this.inflight.set(batchId, { calls: batch, sent: now });
    this.sink.add(batchId, batch.map((p) => p.call), idle).catch((e: unknown) => {
      this.fail(batchId, queueUnavailable(e));
    });
  }
}
