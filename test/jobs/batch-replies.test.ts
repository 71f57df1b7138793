/**
 * Batches answer on the reply channel of the api process that sent them, so that an api hears
 * only its own answers (shared/jobs/bullmq-batches.ts): two apis on one Redis and one worker
 * process, every message on the replies channels counted by a pattern subscriber. A reply that
 * never comes (a worker that does not publish) is made good by reading the batch job.
 */
import t from 'tap';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError } from '../../shared/errors.ts';
import { createBullRunner } from '../../shared/jobs/bullmq.ts';
import { QUEUES, type BatchPayload, type BatchReply, type CallOutcome } from '../../shared/jobs/queues.ts';
import { startConsumers } from '../../workers/consumer.ts';
import type { ChemPool } from '../../shared/threads/pool.ts';
import { testPrefix, testRedis } from '../helpers/redis.ts';
import type { Teardown as Tap } from '../helpers/task.ts';

/** A pool whose task `echo` answers its `value` upper-cased and `bad` fails with 422. */
function echoPool(): ChemPool {
  const pool = {
    run(task: string, args: { value: string }) {
      const p = (async () => {
        await new Promise((r) => setTimeout(r, 2));
        if (task === 'bad') throw new AppError(422, `Error reading SMILES, check again: ${args.value}`, 'invalid_input');
        return args.value.toUpperCase();
      })();
      return Object.assign(p, { cancel() {}, started: () => true });
    },
    together: <T>(fn: () => T) => fn(),
  };
  return pool as unknown as ChemPool;
}

const timeouts = { quickMs: 10_000, longMs: 10_000, waitMs: 30_000, resultTtlSeconds: 60 };
const redis = await testRedis();
const skip = !redis && 'no Redis (REDIS_URL, 127.0.0.1:6379, or a redis-server binary)';
t.teardown(() => redis?.stop());

t.test('two apis: each hears only the answers of its own batches', { skip }, async (t) => {
  const prefix = testPrefix();
  const consumers = await startConsumers({ redisUrl: redis!.url, prefix, pool: echoPool(), concurrency: 2, lockMs: 5_000 });
  t.teardown(() => consumers.close(0));
  const [a, b] = await Promise.all([0, 1].map(() => createBullRunner({ redisUrl: redis!.url, prefix, attempts: 2, timeouts })));
  t.teardown(() => Promise.all([a!.close(), b!.close()]));

  const spy = new Redis(redis!.url);
  t.teardown(() => spy.disconnect());
  const heard = new Map<string, BatchReply[]>();
  spy.on('pmessage', (_p, channel: string, message: string) => {
    heard.set(channel, [...(heard.get(channel) ?? []), JSON.parse(message) as BatchReply]);
  });
  await spy.psubscribe(`${prefix}:replies:*`);

  const calls = (runner: typeof a, tag: string, n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => runner!.run(i % 7 === 3 ? 'bad' : 'echo', i % 7 === 3 ? 'bad' : 'echo', { value: `${tag}${i}` }).then((v) => v, (e: AppError) => e)));
  const [fromA, fromB] = await Promise.all([calls(a, 'a', 60), calls(b, 'b', 35)]);
  for (const [tag, answers] of [['a', fromA], ['b', fromB]] as const) {
    const wrong = answers.filter((v, i) => (i % 7 === 3 ? !(v instanceof AppError && v.status === 422 && String(v.detail).endsWith(`${tag}${i}`)) : v !== `${tag}${i}`.toUpperCase()));
    t.same(wrong, [], `api ${tag}: every call has its own answer`);
  }

  await new Promise((r) => setTimeout(r, 100));
  t.equal(heard.size, 2, 'replies went to two channels, one per api');
  const values = (channel: string) =>
    (heard.get(channel) ?? []).flatMap((r) => ('outcomes' in r ? r.outcomes : [])).map((o: CallOutcome) => (o.ok ? String(o.value) : String(o.error.detail)));
  const byChannel = [...heard.keys()].map((c) => values(c));
  const tags = byChannel.map((vs) => new Set(vs.map((v) => /(?:^|: )([ab])\d+$/i.exec(v)?.[1]?.toLowerCase())));
  t.same(tags.map((s) => [...s].sort()).sort(), [['a'], ['b']], "each channel carried the calls of one api only");
  t.same(byChannel.map((vs) => vs.length).sort((x, y) => x - y), [35, 60], 'every call was answered once, on its own api');
});

/** A worker of the batch queue that completes each batch (values upper-cased) without publishing its reply. */
function muteWorker(t: Tap, prefix: string) {
  const conn = new Redis(redis!.url, { maxRetriesPerRequest: null });
  const mute = new Worker(
    QUEUES.batch,
    async (job) => (job.data as BatchPayload).calls.map((c): CallOutcome => ({ ok: true, value: String(c.args.value).toUpperCase() })),
    { connection: conn, prefix },
  );
  t.teardown(async () => {
    await mute.close();
    conn.disconnect();
  });
}

t.test('a reply that never comes: the call is answered from the batch job', { skip }, async (t) => {
  const prefix = testPrefix();
  // A worker that completes batches without publishing (as a lost message would look).
  muteWorker(t, prefix);
  const runner = await createBullRunner({ redisUrl: redis!.url, prefix, attempts: 2, timeouts });
  t.teardown(() => runner.close());
  const started = Date.now();
  t.equal(await runner.run('echo', 'echo', { value: 'quiet' }), 'QUIET', 'answered with the value the job holds');
  t.comment(`answered after ${Date.now() - started} ms (the watchdog reads batches out for 10 s)`);
});

t.test('a reply channel that reconnects reads its batches back at once, not after the watchdog', { skip }, async (t) => {
  const prefix = testPrefix();
  // As above, a worker that never publishes; then the api's reply subscriber loses its connection
  // (as when Redis restarts) and subscribes again.
  muteWorker(t, prefix);
  const admin = new Redis(redis!.url);
  t.teardown(() => admin.disconnect());
  const runner = await createBullRunner({ redisUrl: redis!.url, prefix, attempts: 2, timeouts });
  t.teardown(() => runner.close());
  const started = Date.now();
  const answer = runner.run('echo', 'echo', { value: 'again' });
  await new Promise((r) => setTimeout(r, 500));
  const list = String(await admin.client('LIST'));
  const ids = list.split('\n').filter((l) => / name=jobs-replies( |$)/.test(l)).map((l) => /\bid=(\d+)/.exec(l)![1]!);
  t.ok(ids.length >= 1, 'the reply subscriber is found by its connection name');
  for (const id of ids) await admin.client('KILL', 'ID', id);
  t.equal(await answer, 'AGAIN', 'answered with the value the job holds');
  const ms = Date.now() - started;
  t.ok(ms < 10_000, `answered after ${ms} ms: read back when the subscriber came back, before the watchdog's 10 s`);
});
