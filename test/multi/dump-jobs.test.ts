/**
 * Dump job records in Redis (api/catalog/dumps/jobs.ts), as two api processes see them: one dump
 * at a time across both, the status readable from either, and a dump whose process stopped (its
 * lock lapsed) read as failed instead of running for ever.
 */
import t from 'tap';
import { Redis } from 'ioredis';
import { dumpKeys, redisDumpJobs, type DumpJob } from '../../api/catalog/dumps/jobs.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { testPrefix, testRedis } from '../helpers/redis.ts';

const redis = await testRedis();
if (!redis) {
  skipAll(t, NO_REDIS);
  process.exit(0);
}
const prefix = testPrefix();
const connA = new Redis(redis.url, { maxRetriesPerRequest: 1 });
const connB = new Redis(redis.url, { maxRetriesPerRequest: 1 });
const a = redisDumpJobs(connA, prefix, 60);
const b = redisDumpJobs(connB, prefix, 60);
t.teardown(async () => {
  a.close();
  b.close();
  const keys = await connA.keys(`${prefix}:*`);
  if (keys.length) await connA.del(...keys);
  connA.disconnect();
  connB.disconnect();
  await redis.stop();
});

const job = (id: string): DumpJob => ({
  id,
  status: 'running',
  date: '2026-01-01',
  sdf3d: false,
  progress: { rows: 0, total: 0 },
  created_at: new Date().toISOString(),
  user_id: 1,
});

t.test('one dump at a time across processes; its record read from the other', async (t) => {
  const first = job('dump-1');
  t.same(await a.begin(first), { ok: true }, 'A takes the lock');
  t.same(await b.begin(job('dump-2')), { ok: false, running: 'dump-1' }, 'B is refused, naming the running dump');
  t.match(await b.get('dump-1'), { id: 'dump-1', status: 'running' }, 'B reads the running record');
  t.equal(await b.get('dump-2'), undefined, 'the refused dump has no record');

  first.status = 'succeeded';
  first.progress = { rows: 3, total: 3 };
  first.finished_at = new Date().toISOString();
  await a.end(first);
  t.match(await b.get('dump-1'), { status: 'succeeded', progress: { rows: 3, total: 3 } }, 'B reads the end');
  t.equal(await connA.get(dumpKeys(prefix).lock), null, 'the lock is released');
  const ttl = await connA.ttl(dumpKeys(prefix).job('dump-1'));
  t.ok(ttl > 0 && ttl <= 60, `the finished record expires after the result TTL (${ttl} s)`);
  t.same(await b.begin(job('dump-3')), { ok: true }, 'B may start the next one');
  await b.end({ ...job('dump-3'), status: 'failed', error: 'test' });
});

t.test('a dump whose process stopped reads as failed, and frees the lock for the next', async (t) => {
  t.same(await a.begin(job('dump-4')), { ok: true });
  a.close(); // its refresh stops, as when the process dies
  await connA.del(dumpKeys(prefix).lock); // the lock lapsed (what LOCK_MS of silence does)
  t.match(await b.get('dump-4'), { status: 'failed', error: /process running this dump stopped/ }, 'B reads it failed');
  t.match(await a.get('dump-4'), { status: 'failed' }, 'and so does anyone after');
  t.same(await b.begin(job('dump-5')), { ok: true }, 'a new dump may start');
  t.match(await a.get('dump-5'), { status: 'running' }, 'a live dump with its lock stays running');
  await b.end({ ...job('dump-5'), status: 'succeeded' });
});
