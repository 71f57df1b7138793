/**
 * The structure-search index sharded by molecule id (SEARCH_SHARDS > 1, distributed mode;
 * docs/search.md, "Sizing and sharding"). A worker process holding shard k of N loads and follows
 * only the molecules with `id % N == k` (redis-feed.ts) and answers the searches of that shard's
 * own queue; the api sends each search to one worker of every shard and merges their answers here,
 * into what the whole index would have answered.
 *
 * Each worker holding a shard says so in a hash (`<prefix>:search:shards`, field = worker id,
 * value = JSON: the shard, the index's state, a time) every few seconds; the api reads it for
 * /health and to answer 503 naming a shard that no worker serves, instead of leaving the search
 * waiting in a queue nobody consumes.
 */
import type { Redis } from 'ioredis';
import type { SearchAnswer, SearchArgs, ShardSpec } from './contract.ts';
import type { IndexStatus } from './service.ts';

export type { ShardSpec } from './contract.ts';

export const inShard = (id: number, s: ShardSpec): boolean => id % s.of === s.index;

/** The BullMQ queue of one shard's searches. The count is in the name: an api and a worker that disagree on SEARCH_SHARDS never meet. */
export const shardQueue = (s: ShardSpec): string => `chem-search-${s.index}-of-${s.of}`;

export const shardsKey = (prefix: string): string => `${prefix}:search:shards`;

/** How often a worker says which shard it holds, and after how long without word it no longer counts. */
export const ANNOUNCE_EVERY_MS = 5_000;
export const SHARD_STALE_MS = 30_000;

interface Announcement {
  shard: number;
  of: number;
  state: IndexStatus['state'];
  molecules: number;
  bytes: number;
  at: number;
}

/**
 * A worker's word that it holds `shard`, repeated every ANNOUNCE_EVERY_MS with its index's state.
 * `stop()` takes it back at once (a worker that dies without it lapses after SHARD_STALE_MS).
 */
export function announceShard(redis: Redis, prefix: string, workerId: string, shard: ShardSpec, status: () => IndexStatus): { stop(): Promise<void> } {
  const say = () => {
    const s = status();
    const a: Announcement = { shard: shard.index, of: shard.of, state: s.state, molecules: s.molecules, bytes: s.bytes, at: Date.now() };
    void redis.hset(shardsKey(prefix), workerId, JSON.stringify(a)).catch(() => {});
  };
  say();
  const timer = setInterval(say, ANNOUNCE_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await redis.hdel(shardsKey(prefix), workerId).catch(() => {});
    },
  };
}

/** One shard as the api sees it: how many workers hold it, and the best state among them. */
export interface ShardState {
  shard: number;
  workers: number;
  state: IndexStatus['state'] | 'no worker';
  molecules?: number;
  bytes?: number;
}

const RANK: Record<IndexStatus['state'], number> = { ready: 3, building: 2, empty: 1, failed: 0 };

/**
 * The shards 0..of-1 as their workers last announced them (announcements for another shard count
 * are left out: those workers serve another layout); stale announcements are removed.
 */
export async function readShards(redis: Redis, prefix: string, of: number, now = Date.now()): Promise<ShardState[]> {
  const all = await redis.hgetall(shardsKey(prefix));
  const out: ShardState[] = Array.from({ length: of }, (_, shard) => ({ shard, workers: 0, state: 'no worker' }));
  for (const [worker, raw] of Object.entries(all)) {
    let a: Announcement;
    try {
      a = JSON.parse(raw) as Announcement;
    } catch {
      continue;
    }
    if (!(a.at >= now - SHARD_STALE_MS)) {
      void redis.hdel(shardsKey(prefix), worker).catch(() => {});
      continue;
    }
    const s = out[a.shard];
    if (a.of !== of || !s) continue;
    s.workers++;
    if (s.state === 'no worker' || RANK[a.state] > RANK[s.state]) Object.assign(s, { state: a.state, molecules: a.molecules, bytes: a.bytes });
  }
  return out;
}

/** What shard `s` is asked: the first `offset + limit` hits of its own (limit 0: all), without the excluded ids it holds. */
export function shardArgs(args: SearchArgs, s: ShardSpec): SearchArgs {
  return {
    ...args,
    offset: 0,
    limit: args.limit ? args.offset + args.limit : 0,
    ...(args.exclude ? { exclude: args.exclude.filter((id) => inShard(id, s)) } : {}),
    shard: s,
  };
}

/**
 * The answer of the whole index from the shards' answers to `shardArgs`. Each shard's first
 * `offset + limit` hits in the search's order hold every hit of the merged page that is its own, so
 * the page is exact: by id (substructure), or by score, best first, ties by id (similarity and
 * COCONUT's substructure order), as SearchService orders them. The total is the sum when every
 * shard counted its hits (a full scan), else null; `more` when a shard has more or the merged hits
 * go past the page.
 */
export function mergeShardAnswers(args: SearchArgs, answers: SearchAnswer[]): SearchAnswer {
  const stats = { scanned: 0, candidates: 0, molecules: 0 };
  for (const a of answers) {
    stats.scanned += a.stats.scanned;
    stats.candidates += a.stats.candidates;
    stats.molecules += a.stats.molecules;
  }
  const total = answers.every((a) => a.total !== null) ? answers.reduce((n, a) => n + a.total!, 0) : null;
  const anyMore = answers.some((a) => a.more);
  const cut = <T>(xs: T[]) => (args.limit ? xs.slice(args.offset, args.offset + args.limit) : xs.slice(args.offset));
  if (args.type === 'similarity' || args.order === 'similarity') {
    const hits: [number, number][] = [];
    for (const a of answers) a.ids.forEach((id, i) => hits.push([id, a.scores?.[i] ?? 0]));
    hits.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    const page = cut(hits);
    return { ids: page.map((h) => h[0]), scores: page.map((h) => h[1]), total, more: anyMore || args.offset + page.length < hits.length, stats };
  }
  const ids = answers.flatMap((a) => a.ids).sort((x, y) => x - y);
  const page = cut(ids);
  return { ids: page, total, more: anyMore || args.offset + page.length < ids.length, stats };
}
