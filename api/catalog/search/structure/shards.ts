/**
 * Structure search over a sharded index (SEARCH_SHARDS > 1, distributed mode), api side: each
 * `catalog_search` goes to one worker of every shard, on that shard's own queue, and the answers
 * are merged into the whole index's (shared/structure-search/shards.ts). Which shards have
 * workers, and the state of their indexes, is read from what the workers announce in Redis: for
 * /health, and before each search, which answers 503 naming the shards no worker holds rather
 * than waiting on a queue nobody reads.
 */
import type { Redis } from 'ioredis';
import { AppError } from '../../../../shared/errors.ts';
import type { JobRunner } from '../../../../shared/jobs/types.ts';
import type { SearchAnswer, SearchArgs, ShardSpec } from '../../../../shared/structure-search/contract.ts';
import { mergeShardAnswers, readShards, shardArgs, shardQueue, type ShardState } from '../../../../shared/structure-search/shards.ts';

/** How long a read of the shards' layout serves searches and /health. */
const LAYOUT_FRESH_MS = 1_000;

export class ShardedSearch {
  private layout: ShardState[] | undefined;
  private readAt = 0;
  private reading: Promise<ShardState[]> | undefined;
  private error: string | undefined;

  constructor(
    private readonly runner: JobRunner,
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly of: number,
  ) {}

  /** The shards as their workers announced them, read again when older than LAYOUT_FRESH_MS. */
  shards(): Promise<ShardState[]> {
    if (this.layout && Date.now() - this.readAt < LAYOUT_FRESH_MS) return Promise.resolve(this.layout);
    this.reading ??= readShards(this.redis, this.prefix, this.of)
      .then(
        (layout) => {
          this.layout = layout;
          this.readAt = Date.now();
          this.error = undefined;
          return layout;
        },
        (e: unknown) => {
          this.error = (e as Error)?.message ?? String(e);
          throw new AppError(503, `The structure search shards cannot be read from Redis: ${this.error}`, 'unavailable');
        },
      )
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** What /health shows: the last layout read (and a read started for the next time). */
  status(): Record<string, unknown> {
    this.shards().catch(() => {});
    return { of: this.of, shards: this.layout ?? [], ...(this.error ? { error: this.error } : {}) };
  }

  /** One search, sent to a worker of every shard; the merged answer is the whole index's. */
  async search(args: SearchArgs): Promise<SearchAnswer> {
    const layout = await this.shards();
    const missing = layout.filter((s) => s.workers === 0).map((s) => s.shard);
    if (missing.length) {
      const which = `${missing.length > 1 ? 'shards' : 'shard'} ${missing.join(', ')} of ${this.of}`;
      throw new AppError(503, `No worker holds structure-search ${which} (a worker with SEARCH_SHARDS=${this.of} SEARCH_SHARD=${missing[0]} would); try again shortly`, 'index_unavailable');
    }
    const answers = await Promise.all(
      layout.map((s) => {
        const shard: ShardSpec = { index: s.shard, of: this.of };
        return this.runner.runTask('catalog_search', 'catalog_search', shardArgs(args, shard), { queue: shardQueue(shard) }).catch((e: unknown) => {
          // A shard's own trouble (its index being built, a timeout) names it; a bad query is the same 422 on every shard.
          const app = AppError.from(e);
          if (app && app.status >= 500 && typeof app.detail === 'string') throw new AppError(app.status, `Structure-search shard ${s.shard} of ${this.of}: ${app.detail}`, app.code);
          throw e;
        });
      }),
    );
    return mergeShardAnswers(args, answers);
  }
}
