/**
 * The structure-search index in the distributed mode: the api processes publish the catalog's
 * molecules to Redis, and every worker process keeps its own in-memory copy from there.
 *
 * Keys (under the queue prefix): `search:rows` a hash id → {smiles, fingerprints} (JSON) of every
 * molecule; `search:log` a stream of changes (`put`/`del` with ids, `reset`); `search:gen` the
 * generation of the hash, replaced by each full republish. A worker loads the hash, then applies
 * the stream from the entry it noted before loading; before each search it catches up (one
 * round trip), so a write acknowledged before the search was sent is always seen. When Redis
 * loses its data (a restart without persistence) the generation key is gone: searches answer
 * 503 until an api process notices (it checks every few seconds) and republishes.
 *
 * A worker holding one shard (SEARCH_SHARDS > 1, shards.ts) reads every entry but keeps only its
 * own molecules: its memory is its shard's, Redis and the api publish as before.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import type { RowInput, SearchFeed } from '../chem/catalog/ports.ts';
import type { SearchService } from './service.ts';
import { inShard, type ShardSpec } from './shards.ts';

export const searchKeys = (prefix: string) => ({
  rows: `${prefix}:search:rows`,
  log: `${prefix}:search:log`,
  gen: `${prefix}:search:gen`,
  lock: `${prefix}:search:lock`,
});

/** Stream entries kept: a worker further behind than this reloads the whole hash. */
const LOG_MAX = 200_000;
const HSET_BATCH = 500;

const encode = (r: RowInput) => JSON.stringify({ s: r.smiles, f: r.fingerprints ?? null });

/** The api side: publishes every molecule write, and republishes everything when Redis lost it. */
export class RedisSearchPublisher implements SearchFeed {
  private readonly k: ReturnType<typeof searchKeys>;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.k = searchKeys(prefix);
  }

  async put(rows: RowInput[]): Promise<void> {
    const p = this.redis.multi();
    for (const r of rows) p.hset(this.k.rows, String(r.id), encode(r));
    p.xadd(this.k.log, 'MAXLEN', '~', String(LOG_MAX), '*', 'op', 'put', 'ids', rows.map((r) => r.id).join(','));
    await p.exec();
  }

  async remove(ids: number[]): Promise<void> {
    const p = this.redis.multi();
    p.hdel(this.k.rows, ...ids.map(String));
    p.xadd(this.k.log, 'MAXLEN', '~', String(LOG_MAX), '*', 'op', 'del', 'ids', ids.join(','));
    await p.exec();
  }

  async rebuild(pages: () => AsyncIterable<RowInput[]>): Promise<void> {
    await this.redis.del(this.k.gen, this.k.rows);
    for await (const page of pages()) {
      for (let i = 0; i < page.length; i += HSET_BATCH) {
        const p = this.redis.pipeline();
        for (const r of page.slice(i, i + HSET_BATCH)) p.hset(this.k.rows, String(r.id), encode(r));
        await p.exec();
      }
    }
    const gen = randomUUID();
    await this.redis.multi().set(this.k.gen, gen).xadd(this.k.log, 'MAXLEN', '~', String(LOG_MAX), '*', 'op', 'reset', 'gen', gen).exec();
  }

  /**
   * Republishes when the generation key is missing (first start, or Redis lost its data). One api
   * process does it at a time (a lock key); the others find the generation afterwards.
   */
  async ensure(pages: () => AsyncIterable<RowInput[]>): Promise<boolean> {
    if (await this.redis.exists(this.k.gen)) return false;
    const token = randomUUID();
    if ((await this.redis.set(this.k.lock, token, 'PX', 600_000, 'NX')) !== 'OK') return false;
    try {
      await this.rebuild(pages);
      return true;
    } finally {
      if ((await this.redis.get(this.k.lock)) === token) await this.redis.del(this.k.lock);
    }
  }
}

/** The worker side: follows the published molecules (of its shard, when it holds one) into this process's index. */
export class RedisSearchFollower {
  private readonly k: ReturnType<typeof searchKeys>;
  private gen: string | undefined;
  private lastId = '0-0';
  private syncing: Promise<void> | undefined;
  private readonly mine: (id: number) => boolean;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly service: SearchService,
    private readonly shard?: ShardSpec,
  ) {
    this.k = searchKeys(prefix);
    this.mine = shard && shard.of > 1 ? (id) => inShard(id, shard) : () => true;
  }

  /** Catches up with Redis; coalesces concurrent callers into one round trip. */
  sync(): Promise<void> {
    this.syncing ??= this.catchUp().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async catchUp(): Promise<void> {
    const res = await this.redis.multi().get(this.k.gen).xrange(this.k.log, `(${this.lastId}`, '+', 'COUNT', 10_000).xrange(this.k.log, '-', '+', 'COUNT', 1).exec();
    const gen = res?.[0]?.[1] as string | null;
    const entries = (res?.[1]?.[1] ?? []) as [string, string[]][];
    const oldest = ((res?.[2]?.[1] ?? []) as [string, string[]][])[0]?.[0];
    if (!gen) throw new AppError(503, 'The structure search index is not published yet (the api publishes it at start); try again shortly', 'index_unavailable');
    // A new generation, or changes trimmed away before we read them: load everything again.
    if (gen !== this.gen || (oldest && this.lastId !== '0-0' && compareIds(oldest, this.lastId) > 0)) {
      await this.reload(gen);
      return;
    }
    for (const [id, fields] of entries) {
      const f = Object.fromEntries(pairs(fields));
      if (f.op === 'reset') {
        if (f.gen !== this.gen) return this.reload(f.gen);
      } else if (f.ids) {
        // Only this shard's molecules (every one without shards).
        const ids = f.ids.split(',').map(Number).filter(this.mine);
        if (f.op === 'del') {
          if (ids.length) await this.service.apply([], ids);
        } else if (ids.length) {
          const values = await this.redis.hmget(this.k.rows, ...ids.map(String));
          const put: RowInput[] = [];
          const gone: number[] = [];
          ids.forEach((mid, i) => {
            const v = values[i];
            if (v) put.push(decode(mid, v));
            else gone.push(mid);
          });
          await this.service.apply(put, gone);
        }
      }
      this.lastId = id;
    }
    if (entries.length === 10_000) return this.catchUp();
  }

  private async reload(gen: string): Promise<void> {
    const last = (await this.redis.xrevrange(this.k.log, '+', '-', 'COUNT', 1)) as [string, string[]][];
    const from = last[0]?.[0] ?? '0-0';
    const total = await this.redis.hlen(this.k.rows);
    const redis = this.redis;
    const key = this.k.rows;
    const mine = this.mine;
    await this.service.rebuild(async function* () {
      let cursor = '0';
      do {
        const [next, flat] = await redis.hscan(key, cursor, 'COUNT', 2000);
        cursor = next;
        const page = pairs(flat).filter(([id]) => mine(Number(id)));
        if (page.length) yield page.map(([id, v]) => decode(Number(id), v));
      } while (cursor !== '0');
    }, Math.ceil(total / (this.shard?.of ?? 1)));
    this.gen = gen;
    this.lastId = from;
    // Changes published while we loaded (puts are idempotent).
    await this.catchUp();
  }
}

function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

function decode(id: number, v: string): RowInput {
  const o = JSON.parse(v) as { s: string; f: unknown };
  return { id, smiles: o.s, fingerprints: o.f ?? undefined };
}

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/**
 * A worker process's structure search: its own index on its pool, loaded from Redis and kept
 * current (before each search, and every few seconds so the first search after a burst of
 * writes is quick). Returns a stop function.
 */
export function startWorkerSearch(opts: { redis: Redis; prefix: string; service: SearchService; shard?: ShardSpec; log?: (msg: string, extra?: Record<string, unknown>) => void }): () => void {
  const follower = new RedisSearchFollower(opts.redis, opts.prefix, opts.service, opts.shard);
  opts.service.onSearch(() => follower.sync());
  let warned = false;
  const tick = () =>
    follower.sync().then(
      () => (warned = false),
      (e: unknown) => {
        if (!warned) opts.log?.('structure search index not available yet', { reason: (e as Error)?.message });
        warned = true;
      },
    );
  void tick();
  const timer = setInterval(tick, 5_000);
  timer.unref();
  return () => clearInterval(timer);
}
