/**
 * Limits per client (`req.caller.key()`, api/plugins/identity.ts, says who a client is), with
 * @fastify/rate-limit. Each route declares the budget it counts against (`config.budget`); routes
 * that declare none are not counted:
 *
 * - three request budgets per RATE_LIMIT_WINDOW_MS: `quick` (chemistry operations, job polls and
 *   cancellations, catalog reads and searches, MCP), `long` (the registry's long operations and
 *   any `?async=true` call) and `writes` (catalog mutate, actions, delete, login, register);
 *   health, metrics, docs, the viewer script, CORS preflights and Bull Board are not counted;
 * - a cap on the long jobs one client has queued or running (api/plugins/long-jobs.ts), applied by
 *   the runner the chemistry routes and MCP tools get from `app.clientRunner(req)`.
 *
 * Clients whose address (`req.ip`, i.e. the one TRUST_PROXY believes) matches RATE_LIMIT_EXEMPT
 * (default: loopback) are subject to neither: the owner of a local `npm start` runs batches at full
 * speed, while clients that reach the api from elsewhere, directly or through a trusted proxy,
 * keep every budget.
 *
 * A refusal is 429 with Retry-After (seconds) and the family's error body: `{detail}` for the
 * chemistry service, Laravel's `{message: "Too Many Attempts."}` for the catalog.
 *
 * Distributed mode (REDIS_URL): counters and slots live in Redis, shared by every api replica, on
 * one connection of this plugin that fails fast (no offline queue, 1 s connect, 500 ms per command).
 * When Redis cannot answer, requests are let through (fail-open): the job queue is in the same
 * Redis, so chemistry answers 503 anyway, and the catalog (in MongoDB) keeps working. Each such
 * pass is counted in `natprod_limiter_errors_total` and logged (at most every 10 s).
 */
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import proxyAddr from '@fastify/proxy-addr';
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../../shared/config.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import { connectSoft } from '../../shared/redis.ts';
import { cappedRunner, memorySlots, redisSlots, type SlotStore } from './long-jobs.ts';

export type Budget = 'quick' | 'long' | 'writes';

export interface LimitsOptions {
  config: Config;
  runner: JobRunner;
  registry: Registry;
  /** The limiter's `failFast` Redis connection (distributed mode), built by the composition root. */
  redis?: Redis;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner for this request's client (long submissions count against its cap). */
    clientRunner(req: FastifyRequest): JobRunner;
  }
  interface FastifyContextConfig {
    /**
     * The request budget this route counts against (api/plugins/limits.ts); absent: not counted.
     * A `quick` route called with `?async=true` counts as `long`.
     */
    budget?: Budget;
  }
}

const ASYNC = ['true', '1', 'yes', 'on'];
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const kRetryAfter = Symbol('natprod.retryAfter');

/** The budget a request counts against, as its route declares it; undefined = not counted. */
export function budgetOf(req: FastifyRequest): Budget | undefined {
  if (req.method === 'OPTIONS') return undefined;
  const budget = req.routeOptions.config?.budget;
  if (budget !== 'quick') return budget;
  const flag = (req.query as Record<string, unknown> | undefined)?.async;
  return typeof flag === 'string' && ASYNC.includes(flag.toLowerCase()) ? 'long' : 'quick';
}

/** The budget of a catalog route (api/catalog/plugin.ts declares it on each): writes, except searches. */
export const catalogBudget = (method: string, url: string): Budget => (WRITE_METHODS.has(method) && !url.endsWith('/search') ? 'writes' : 'quick');

const require = createRequire(import.meta.url);
type Incr = (key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number, max: number) => void;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (ce: boolean, eb: boolean, redis: Redis, key: string) => { incr: Incr };

/** @fastify/rate-limit's Redis store with keys `<prefix>:limits:<budget>:<client>` (its own would add the route). */
function flatRedisStore(redis: Redis, namespace: string) {
  return class {
    private readonly inner = new RedisStore(false, false, redis, namespace);
    incr(...args: Parameters<Incr>) {
      this.inner.incr(...args);
    }
    child() {
      return this;
    }
  };
}

function counter(registry: Registry, name: string, help: string, labelNames: string[] = []): Counter<string> {
  return (registry.getSingleMetric(name) as Counter<string> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

async function limits(app: FastifyInstance, opts: LimitsOptions) {
  const { config, runner } = opts;
  const refused = counter(opts.registry, 'natprod_rate_limited_total', 'Requests refused with 429 by budget (quick, long, writes, concurrent)', ['budget']);
  const errors = counter(opts.registry, 'natprod_limiter_errors_total', 'Requests let through because the limit store (Redis) failed');
  let lastLog = 0;
  const storeError = (err: unknown) => {
    errors.inc();
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      app.log.warn({ err: (err as Error)?.message ?? err }, 'limits: store unavailable, request let through (fail-open)');
    }
  };

  const { redis } = opts;
  if (redis && !(await connectSoft(redis))) app.log.warn('limits: Redis not reachable yet; limits fail open until it is');

  const keyOf = (req: FastifyRequest) => req.caller.key();
  const trusted = proxyAddr.compile(config.RATE_LIMIT_EXEMPT);
  const exempt = (req: FastifyRequest) => trusted(req.ip, 0);
  const windowMs = config.RATE_LIMIT_WINDOW_MS;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { store: flatRedisStore(redis, `${config.QUEUE_PREFIX}:limits:`) } : {}),
  });
  const max: Record<Budget, number> = { quick: config.RATE_LIMIT_QUICK, long: config.RATE_LIMIT_LONG, writes: config.RATE_LIMIT_WRITES };
  const kClient = Symbol('natprod.client');
  type Tagged = FastifyRequest & { [kClient]?: string; [kRetryAfter]?: number };
  const limiters = Object.fromEntries(
    (Object.keys(max) as Budget[]).map((b) => {
      // `cache`: clients remembered per budget by the in-process store (least recently seen go first).
      const options = { max: max[b], timeWindow: windowMs, keyGenerator: (req: FastifyRequest) => `${b}:${(req as Tagged)[kClient]}`, cache: 10_000 };
      return [b, app.createRateLimit(options)];
    }),
  ) as Record<Budget, ReturnType<FastifyInstance['createRateLimit']>>;

  const what: Record<Budget, string> = { quick: 'quick operations', long: 'long jobs and asynchronous calls', writes: 'catalog writes' };
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const budget = budgetOf(req);
    if (!budget || max[budget] <= 0 || exempt(req)) return;
    (req as Tagged)[kClient] = await keyOf(req);
    let r;
    try {
      r = await limiters[budget](req);
    } catch (e) {
      storeError(e);
      return;
    }
    if (r.isAllowed) return;
    reply.header('x-ratelimit-limit', r.max).header('x-ratelimit-remaining', r.remaining).header('x-ratelimit-reset', r.ttlInSeconds);
    if (!r.isExceeded) return;
    refused.inc({ budget });
    const retry = Math.max(1, r.ttlInSeconds);
    reply.code(429).header('retry-after', retry);
    if (req.url.startsWith('/api/')) return reply.send({ message: 'Too Many Attempts.' });
    return reply.send({ detail: `Rate limit exceeded: at most ${r.max} requests per ${windowMs / 1000} s for ${what[budget]}; retry in ${retry} s` });
  });

  const slots: SlotStore = redis ? redisSlots(redis, config.QUEUE_PREFIX, config.LONG_TASK_TIMEOUT_MS * config.JOB_ATTEMPTS + config.JOB_RESULT_TTL * 1000) : memorySlots();
  const capped = (req: FastifyRequest) =>
    cappedRunner(runner, () => keyOf(req), {
      slots,
      cap: config.LONG_JOBS_PER_CLIENT,
      // A job may wait in the queue, then run up to its time limit on each attempt.
      jobSlotMs: config.LONG_TASK_TIMEOUT_MS * config.JOB_ATTEMPTS + 3_600_000,
      onStoreError: storeError,
      onRefused: (s) => {
        refused.inc({ budget: 'concurrent' });
        (req as Tagged)[kRetryAfter] = s;
      },
    });
  app.decorate('clientRunner', (req: FastifyRequest) => (exempt(req) ? runner : capped(req)));
  // The cap refuses from inside a handler (an AppError 429): its Retry-After is added here.
  app.addHook('onSend', async (req, reply) => {
    const s = (req as Tagged)[kRetryAfter];
    if (s !== undefined && reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', s);
  });
}

export default fp(limits, { name: 'natprod-limits' });
