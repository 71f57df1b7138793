/**
 * Fault (issue 15.2b): Redis killed and restarted under load. While it is down the api answers
 * chemistry calls 503 at once (within 2 s, no hang), job polls too; once it is back, the same api
 * and worker processes (never restarted) answer again by themselves.
 *
 * Real processes: the api and one worker (WORKERS=1) as children, on a redis-server of this test
 * persisting with `--appendonly yes` as in docker-compose.yml, killed with SIGKILL and started
 * again on the same port and directory.
 */
import t from 'tap';
import {
  MOLECULES, OwnRedis, type Answer, canonicalUrl, haveRedisServer, ready, request, serviceEnv, sleep, startApi, startWorker,
  tempDir, uniquePrefix,
} from './procs.ts';
import { NO_REDIS_SERVER, skipAll } from '../helpers/skip.ts';

if (!haveRedisServer()) {
  skipAll(t, NO_REDIS_SERVER);
  process.exit(0);
}

const DOWN_MS = 5_000;

t.test('Redis restarted under load: 503 at once while it is down, recovery without restarts', async (t) => {
  const redis = await OwnRedis.create(t);
  await redis.start();
  const env = serviceEnv({ REDIS_URL: redis.url, QUEUE_PREFIX: uniquePrefix('redis'), DATA_DIR: tempDir(t, 'data') });
  const api = startApi(t, 'api', env);
  const worker = startWorker(t, 'worker', env);
  await Promise.all([ready(api), ready(worker)]);
  const base = `http://127.0.0.1:${api.port}`;
  const pids = [api.child.pid, worker.child.pid];

  const expected = new Map<string, unknown>();
  for (const smi of MOLECULES) expected.set(smi, (await request(canonicalUrl(base, smi))).body);
  const job = (await request(`${base}/tools/generate-structures?molecular_formula=C6H6`)).body as { job_id: string };
  t.ok(job.job_id, 'a job recorded before the outage');

  // Load for the whole test: 8 clients, one request after the other (saturating while answers
  // come: the batches in flight fill every place the worker has; paced while they are 503s,
  // which come at once), and calls that arrive on their own, one every 50 ms. The clients' calls
  // in flight at the kill are in batches held in Redis, which answer when it is back
  // (docs/operations.md), so those clients start nothing while it is down; the arrivals do.
  const answers: (Answer & { smiles: string })[] = [];
  let stop = false;
  t.teardown(() => {
    stop = true;
  });
  let n = 0;
  const call = async () => {
    const smiles = MOLECULES[n++ % MOLECULES.length]!;
    const a = await request(canonicalUrl(base, smiles), { timeoutMs: 60_000 });
    answers.push({ ...a, smiles });
    return a;
  };
  const clients = Array.from({ length: 8 }, async () => {
    while (!stop) {
      const a = await call();
      if (a.status !== 200) await sleep(20);
    }
  });
  const arrivals: Promise<unknown>[] = [];
  clients.push((async () => {
    while (!stop) {
      arrivals.push(call());
      await sleep(50);
    }
    await Promise.all(arrivals);
  })());
  await sleep(2_000);
  const loaded = answers.filter((a) => a.status === 200).length;
  t.ok(loaded > 10, `${loaded} calls answered under load before the outage`);

  // The worker stalls for a moment (a long GC, a starved CPU) just before Redis dies, so every
  // place for batches in flight is taken by a batch held in Redis when it goes: the case where
  // new calls would wait behind batches that cannot come back.
  worker.child.kill('SIGSTOP');
  await sleep(500);
  await redis.stop('SIGKILL');
  const downAt = Date.now();
  worker.child.kill('SIGCONT');
  t.comment('Redis killed');
  await sleep(300);

  // Probes while Redis is down: a quick call, a long operation, a job poll; each must be a 503
  // within 2 s.
  const probes: Record<string, Answer[]> = { quick: [], long: [], poll: [] };
  while (Date.now() - downAt < DOWN_MS) {
    const [q, l, p] = await Promise.all([
      request(canonicalUrl(base, MOLECULES[probes.quick!.length % MOLECULES.length]!), { timeoutMs: 10_000 }),
      request(`${base}/tools/generate-structures?molecular_formula=C6H6`, { timeoutMs: 10_000 }),
      request(`${base}/jobs/${job.job_id}`, { timeoutMs: 10_000 }),
    ]);
    probes.quick!.push(q);
    probes.long!.push(l);
    probes.poll!.push(p);
    await sleep(250);
  }
  for (const [kind, list] of Object.entries(probes)) {
    t.same(list.map((a) => a.status), list.map(() => 503), `${kind}: every call while Redis is down is 503 (${list.length} calls)`);
    const slowest = Math.max(...list.map((a) => a.ms));
    t.ok(slowest < 2_000, `${kind}: answered within 2 s (slowest ${slowest} ms)`);
  }
  const underLoad = answers.filter((a) => a.start >= downAt + 300 && a.start < downAt + DOWN_MS);
  t.ok(underLoad.length > 0, `${underLoad.length} calls of the load clients started while Redis was down`);
  t.same([...new Set(underLoad.map((a) => a.status))], [503], 'the load clients got 503 too');
  const slowLoad = Math.max(...underLoad.map((a) => a.ms));
  t.ok(slowLoad < 2_000, `the load clients' calls started while Redis was down answered within 2 s (slowest ${slowLoad} ms)`);
  t.match(probes.quick![0]!.body, { detail: /Redis/ }, 'the 503 says why');

  await redis.start();
  const upAt = Date.now();
  t.comment('Redis started again');

  // Recovery: requests succeed again, with no process restarted.
  let firstOk: number | undefined;
  while (Date.now() - upAt < 30_000) {
    const a = await request(canonicalUrl(base, 'CCO'), { timeoutMs: 10_000 });
    if (a.status === 200) {
      firstOk = Date.now() - upAt;
      break;
    }
    await sleep(200);
  }
  t.ok(firstOk !== undefined, `quick calls answer again ${firstOk} ms after Redis is back`);
  await sleep(3_000);
  stop = true;
  await Promise.all(clients);

  const after = answers.filter((a) => a.start >= upAt + (firstOk ?? 0) + 1_000);
  t.ok(after.length > 10, `${after.length} calls of the load after recovery`);
  const bad = after.filter((a) => a.status !== 200 || JSON.stringify(a.body) !== JSON.stringify(expected.get(a.smiles)));
  t.same(bad.map((a) => `${a.status} ${JSON.stringify(a.body)}`), [], 'after recovery every call of the load answers 200 with the right value');
  const hung = answers.filter((a) => a.status === 0);
  t.same(hung.map((a) => a.error), [], 'no call went unanswered');
  const inFlight = answers.filter((a) => a.start < downAt && a.start + a.ms > downAt);
  t.comment(`calls in flight at the kill: ${inFlight.map((a) => `${a.status} after ${a.ms} ms`).join(', ') || 'none'}`);

  // The long operation and job records work again; the processes are the ones started at first.
  const long = await request(`${base}/tools/generate-structures?molecular_formula=C6H6`);
  t.equal(long.status, 202, 'long operations are accepted again');
  let rec: Record<string, any> = {};
  for (let i = 0; i < 100 && rec.status !== 'succeeded'; i++) {
    await sleep(100);
    rec = (await request(`${base}/jobs/${(long.body as { job_id: string }).job_id}`)).body as Record<string, any>;
  }
  t.equal(rec.status, 'succeeded', 'and run by the worker');
  const old = await request(`${base}/jobs/${job.job_id}`);
  t.match(old.body, { status: 'succeeded' }, 'the job recorded before the outage is still there (appendonly)');
  t.same([api.child.pid, worker.child.pid], pids, 'same processes');
  t.ok(api.alive && worker.alive, 'neither the api nor the worker exited');
  const health = await request(`http://127.0.0.1:${worker.port}/health/ready`);
  t.equal(health.status, 200, 'the worker is ready again');
});
