/**
 * Issue 29 in the distributed mode: `toolkit=cdk` and `toolkit=openbabel` reach the sidecars of a
 * worker process (workers/main.ts attaches them to its pool), not the api's. One api and one worker
 * as processes on one Redis (a private key prefix); answers compared with CDK and Open Babel run
 * directly (test/fixtures/toolkits/make.sh), never with natprod. The worker's /health lists the
 * sidecars it started. Each toolkit's part is skipped with the reason when it is not installed.
 */
import t from 'tap';
import { body, noCdk, noOb, rows } from '../toolkits/fixtures.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { testRedis } from '../helpers/redis.ts';
import { dropPrefix, ready, request, serviceEnv, startApi, startWorker, tempDir, uniquePrefix } from '../faults/procs.ts';

const redis = await testRedis();
if (!redis) {
  skipAll(t, NO_REDIS);
  process.exit(0);
}
t.teardown(() => redis.stop());


const prefix = uniquePrefix('toolkits-dist');
const env = serviceEnv({ REDIS_URL: redis.url, QUEUE_PREFIX: prefix, DATA_DIR: tempDir(t, 'data'), SEED_DEMO: 'false', JOB_TIMEOUT_MS: '60000' });
const api = startApi(t, 'api', env);
const worker = startWorker(t, 'worker', env);
t.teardown(async () => {
  await Promise.all([api, worker].map((s) => s.kill('SIGKILL')));
  await dropPrefix(redis.url, prefix);
});
await Promise.all([ready(api), ready(worker)]);
const A = `http://127.0.0.1:${api.port}`;
const get = (path: string, query: Record<string, string>) => request(`${A}${path}?${new URLSearchParams(query)}`);

t.test('Open Babel through the queue answers what Open Babel answers', { skip: noOb }, async (t) => {
  const ref = rows('openbabel.tsv').slice(1, 11);
  for (const [smiles, can, , key] of ref) {
    const [a, k] = await Promise.all([get('/latest/convert/canonicalsmiles', { smiles, toolkit: 'openbabel' }), get('/latest/convert/inchikey', { smiles, toolkit: 'openbabel' })]);
    t.same([a.status, a.body, k.status, k.body], [200, can, 200, key], smiles);
  }
});

t.test('CDK through the queue answers what CDK answers', { skip: noCdk }, async (t) => {
  for (const [smiles, molblock, hose] of rows('cdk.tsv').slice(0, 10)) {
    const [m, h] = await Promise.all([get('/latest/convert/mol2D', { smiles, toolkit: 'cdk' }), get('/latest/chem/HOSEcode', { smiles, spheres: '2', toolkit: 'cdk' })]);
    t.equal(m.status, 200, smiles);
    t.equal(body(String(m.body)), molblock!.replaceAll('\\n', '\n'), `${smiles}: mol2D`);
    t.same(h.body, hose!.split(' '), `${smiles}: HOSE codes`);
  }
});

t.test('the worker, not the api, started the sidecars', { skip: noOb || noCdk }, async (t) => {
  const w = await request(`http://127.0.0.1:${worker.port}/health`);
  t.match(w.body, { toolkits: { cdk: { available: true, state: 'running' }, openbabel: { available: true, state: 'running' } } }, 'the worker\'s /health');
  const a = await request(`${A}/health`);
  t.notMatch(a.body, { toolkits: { cdk: { state: 'running' } } }, 'the api runs no CDK of its own');
});
