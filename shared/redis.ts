/**
 * Every Redis connection of a process comes from here, in one of three profiles, and the
 * composition root builds each once:
 * - `commands`: queue commands, job records, the search publisher, Bull Board. No offline queue (a
 *   call while Redis is away fails at once, as 503, instead of piling up), one retry per command.
 * - `blocking`: BullMQ's workers and QueueEvents, which block on Redis and must wait for it as long
 *   as it takes (BullMQ requires `maxRetriesPerRequest: null` there); one connection each.
 * - `failFast`: the rate limiter, which lets requests through when Redis cannot answer within
 *   500 ms rather than holding them.
 * Connection errors are logged at most every 10 s per connection (ioredis reconnects by itself).
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './log.ts';

export type RedisProfile = 'commands' | 'blocking' | 'failFast';

const PROFILES: Record<RedisProfile, RedisOptions> = {
  commands: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: true },
  blocking: { maxRetriesPerRequest: null },
  failFast: { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1_000, commandTimeout: 500, lazyConnect: true },
};

export function redisClient(url: string, profile: RedisProfile, name: string, log: Logger): Redis {
  const r = new Redis(url, { ...PROFILES[profile], connectionName: name });
  let last = 0;
  r.on('error', (err: Error) => {
    if (Date.now() - last < 10_000) return;
    last = Date.now();
    log.warn({ redis: name, err: err.message }, 'redis: connection error (reconnecting)');
  });
  return r;
}

/** Connects a lazy client; resolves either way (the client keeps reconnecting), false when it did not connect now. */
export async function connectSoft(r: Redis): Promise<boolean> {
  if (r.status === 'ready' || r.status === 'connecting' || r.status === 'connect') return true;
  return r.connect().then(
    () => true,
    () => false,
  );
}
