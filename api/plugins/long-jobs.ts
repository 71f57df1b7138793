/**
 * The cap on concurrent long jobs per client, as a wrapper around the job runner: a long
 * submission first takes a slot of its client, and a client holding `cap` slots is refused with
 * 429. Slots are job ids, so they need no release call: a slot whose job has finished, failed or
 * been cancelled (or whose record expired) is dropped the next time the client is at its cap and
 * the records are read again. That also heals slots of an api process that died.
 *
 * Two slot stores: memory (inline mode, one process) and Redis (distributed mode: every api
 * replica sees the same slots; the check-and-take is one Lua script, so replicas cannot overshoot).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../../shared/errors.ts';
import { isFinished } from '../../shared/jobs/outcome.ts';
import type { JobRunner, SubmitOptions } from '../../shared/jobs/types.ts';

/** What a 429 for the cap advises: long jobs take minutes, so no point asking again at once. */
export const CAP_RETRY_AFTER_S = 30;
/** A reservation made before its job has an id; replaced by the id once the submission returns. */
const RESERVATION_MS = 60_000;
const JOB = 'job:';

export interface SlotStore {
  /** Adds `member` unless the client already holds `cap` live slots; true when added. */
  take(client: string, member: string, cap: number, expiresAt: number): Promise<boolean>;
  members(client: string): Promise<string[]>;
  drop(client: string, members: string[]): Promise<void>;
  /** Turns a reservation into the job's slot. */
  swap(client: string, from: string, to: string, expiresAt: number): Promise<void>;
}

export function memorySlots(): SlotStore {
  const slots = new Map<string, Map<string, number>>();
  const live = (client: string) => {
    const m = slots.get(client);
    if (!m) return undefined;
    const now = Date.now();
    for (const [k, exp] of m) if (exp <= now) m.delete(k);
    if (!m.size) slots.delete(client);
    return m.size ? m : undefined;
  };
  return {
    async take(client, member, cap, expiresAt) {
      const m = live(client) ?? new Map<string, number>();
      if (m.size >= cap && !m.has(member)) return false;
      m.set(member, expiresAt);
      slots.set(client, m);
      return true;
    },
    async members(client) {
      return [...(live(client)?.keys() ?? [])];
    },
    async drop(client, members) {
      const m = slots.get(client);
      for (const k of members) m?.delete(k);
      if (m && !m.size) slots.delete(client);
    },
    async swap(client, from, to, expiresAt) {
      const m = slots.get(client) ?? new Map<string, number>();
      m.delete(from);
      m.set(to, expiresAt);
      slots.set(client, m);
    },
  };
}

// KEYS[1] the client's sorted set (score = expiry, ms); ARGV: now, cap, member, expiry, key ttl
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/** Slots in Redis under `<prefix>:limits:jobs:<client>`; the key outlives its longest slot. */
export function redisSlots(redis: Redis, prefix: string, keyTtlMs: number): SlotStore {
  const key = (client: string) => `${prefix}:limits:jobs:${client}`;
  return {
    async take(client, member, cap, expiresAt) {
      return (await redis.eval(TAKE, 1, key(client), Date.now(), cap, member, expiresAt, keyTtlMs)) === 1;
    },
    async members(client) {
      return redis.zrangebyscore(key(client), Date.now(), '+inf');
    },
    async drop(client, members) {
      if (members.length) await redis.zrem(key(client), ...members);
    },
    async swap(client, from, to, expiresAt) {
      await redis.multi().zrem(key(client), from).zadd(key(client), expiresAt, to).pexpire(key(client), keyTtlMs).exec();
    },
  };
}

export interface LongJobCap {
  slots: SlotStore;
  cap: number;
  /** How long a job's slot is kept at most if its record is never seen finished (a safety net). */
  jobSlotMs: number;
  /** Called when the slot store fails: the submission goes ahead (fail-open). */
  onStoreError(err: unknown): void;
  /** Called with the Retry-After seconds when a submission is refused. */
  onRefused(retryAfterS: number): void;
}

/** The runner as one client's requests see it: long submissions count against the client's cap. */
export function cappedRunner(runner: JobRunner, client: () => Promise<string>, opts: LongJobCap): JobRunner {
  const wrapped = Object.create(runner) as JobRunner;
  wrapped.submit = async (op: string, task: string, args: unknown, so: SubmitOptions = {}) => {
    if (so.mode !== 'long' || opts.cap <= 0) return runner.submit(op, task, args, so);
    const who = await client();
    const reservation = `res:${randomUUID()}`;
    let taken: boolean;
    try {
      taken = await take(runner, who, reservation, so.jobId, opts);
    } catch (e) {
      opts.onStoreError(e);
      return runner.submit(op, task, args, so);
    }
    if (!taken) {
      opts.onRefused(CAP_RETRY_AFTER_S);
      throw new AppError(
        429,
        `Too many long jobs for this client: at most ${opts.cap} may be queued or running at once. ` +
          'Wait for one to finish (poll its status URL) or cancel one (DELETE /jobs/{id}), then submit again.',
        'rate_limited',
      );
    }
    try {
      const rec = await runner.submit(op, task, args, so);
      await opts.slots.swap(who, reservation, JOB + rec.id, Date.now() + opts.jobSlotMs).catch(opts.onStoreError);
      return rec;
    } catch (e) {
      await opts.slots.drop(who, [reservation]).catch(opts.onStoreError);
      throw e;
    }
  };
  return wrapped;
}

async function take(runner: JobRunner, who: string, reservation: string, jobId: string | undefined, opts: LongJobCap): Promise<boolean> {
  const expires = Date.now() + RESERVATION_MS;
  if (await opts.slots.take(who, reservation, opts.cap, expires)) return true;
  // At the cap: read the jobs behind the slots and drop those that ended.
  const members = await opts.slots.members(who);
  // Asking again for a job this client already holds (an idempotency key) takes no new slot.
  if (jobId && members.includes(JOB + jobId)) return opts.slots.take(who, reservation, Number.MAX_SAFE_INTEGER, expires);
  const ended: string[] = [];
  await Promise.all(
    members
      .filter((m) => m.startsWith(JOB))
      .map(async (m) => {
        try {
          const rec = await runner.get(m.slice(JOB.length));
          if (!rec || isFinished(rec)) ended.push(m);
        } catch {
          // unknown state (queue unavailable): the slot stays
        }
      }),
  );
  if (!ended.length) return false;
  await opts.slots.drop(who, ended);
  return opts.slots.take(who, reservation, opts.cap, expires);
}
