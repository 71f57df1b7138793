/**
 * Issue 28: any number of apis. Two api processes and one worker on one Redis (a private key
 * prefix) and one shared DATA_DIR, as the deployment runs them (children through tsx, as
 * test/faults does); every job is submitted through one api and polled, cancelled or downloaded
 * through the other: a chemistry job, an export, a bulk look-up, a dump; and the rate-limit budget
 * of a client spent on one api is spent on the other. Nothing here asserts a time: every wait is
 * for a state, bounded only so that a broken build fails instead of hanging.
 */
import t from 'tap';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';
import { testRedis } from '../helpers/redis.ts';
import { request, serviceEnv, sleep, tempDir, twoApisAndWorker, uniquePrefix, type Answer } from '../faults/procs.ts';

const redis = await testRedis();
if (!redis) {
  skipAll(t, NO_REDIS);
  process.exit(0);
}
t.teardown(() => redis.stop());

// C7H7NO without restrictions: about 8 s of one core (test/faults/worker-kill.test.ts), long
// enough to be cancelled while it runs.
const STRUCTGEN = '/tools/generate-structures?molecular_formula=C7H7NO&limit=5&max_heavy_atoms=10&planar=false&allow_triple_bonds=true&bad_substructures=none&allow_3_rings=true&allow_4_cycles=true&async=true';
const MOLECULES = [['ethanol', 'CCO'], ['benzene', 'c1ccccc1'], ['caffeine', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C']];
/** Catalog writes (mutate, exports, look-ups, dumps, logins) each client may make, across both apis. */
const WRITES = 10;

/** Polls `url` until `done` says so (at most `tries` times, 250 ms apart); the last answer. */
async function until(url: string, init: RequestInit, done: (a: Answer) => boolean, tries = 480): Promise<Answer> {
  let a = await request(url, init);
  for (let i = 0; i < tries && !done(a); i++) {
    await sleep(250);
    a = await request(url, init);
  }
  return a;
}

const prefix = uniquePrefix('multi-api');
const dataDir = tempDir(t, 'data');

// One admin and their token, written to the shared folder's store before the apis start.
const store = await openStore({ dataDir });
const admin = await ensureUser(store, 'admin@example.org', 'admin', 'correct horse');
const token = await issueToken(store, admin.id, 'test');
await store.close();
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const env = serviceEnv({
  REDIS_URL: redis.url,
  QUEUE_PREFIX: prefix,
  DATA_DIR: dataDir,
  JOB_TIMEOUT_MS: '90000',
  // Only the writes budget is on, small, for every client including loopback (this test's).
  RATE_LIMIT_WRITES: String(WRITES),
  RATE_LIMIT_WINDOW_MS: '3600000',
  RATE_LIMIT_EXEMPT: '',
});
const { apiA, apiB } = await twoApisAndWorker(t, redis.url, prefix, env);
const A = `http://127.0.0.1:${apiA.port}`;
const B = `http://127.0.0.1:${apiB.port}`;

t.test('a chemistry job submitted on A is polled and cancelled on B', async (t) => {
  const sub = await request(A + STRUCTGEN);
  t.equal(sub.status, 202, 'submitted on A');
  const id = (sub.body as { job_id: string }).job_id;
  t.ok(id, 'a job id');
  const onB = await request(`${B}/jobs/${id}`);
  t.equal(onB.status, 200, 'B knows the job');
  t.match(onB.body, { id, status: /^(queued|running)$/ }, 'not finished yet on B');
  const cancelled = await request(`${B}/jobs/${id}`, { method: 'DELETE' });
  t.equal(cancelled.status, 200, 'cancelled on B');
  t.match(cancelled.body, { id, status: 'cancelled' });
  const onA = await until(`${A}/jobs/${id}`, {}, (a) => (a.body as { status?: string })?.status !== 'running');
  t.match(onA.body, { id, status: 'cancelled' }, 'A sees it cancelled');
});

t.test('catalog writes on A are read on B; an export made on A is polled and downloaded on B', async (t) => {
  const mutate = await request(`${A}/api/molecules/mutate`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ mutate: MOLECULES.map(([name, smiles]) => ({ operation: 'create', attributes: { name, canonical_smiles: smiles } })) }),
  });
  t.equal(mutate.status, 200, `molecules created on A: ${JSON.stringify(mutate.body).slice(0, 300)}`);

  const sub = await request(`${A}/api/molecules/export`, { method: 'POST', headers: auth, body: JSON.stringify({ format: 'smi', async: true }) });
  t.equal(sub.status, 202, 'export job on A');
  const id = (sub.body as { job_id: string }).job_id;
  const status = await until(`${B}/api/exports/${id}`, { headers: auth }, (a) => a.status !== 200 || !['queued', 'running'].includes((a.body as { status: string }).status));
  t.equal(status.status, 200, 'B answers its status');
  t.match(status.body, { id, status: 'succeeded', progress: { rows: MOLECULES.length, total: MOLECULES.length } });
  const file = await request(`${B}/api/exports/${id}/download`, { headers: auth });
  t.equal(file.status, 200, 'downloaded on B');
  const lines = String(file.body).trim().split('\n');
  t.equal(lines.length, MOLECULES.length, 'one line per molecule');
  t.ok(lines.some((l) => l.startsWith('CCO\t')), 'ethanol is in it');
});

t.test('a look-up job submitted on A is answered on B', async (t) => {
  const sub = await request(`${A}/api/molecules/lookup`, { method: 'POST', headers: auth, body: JSON.stringify({ queries: ['CCO', 'no such molecule'], async: true }) });
  t.equal(sub.status, 202, 'look-up job on A');
  const id = (sub.body as { job_id: string }).job_id;
  const status = await until(`${B}/api/lookups/${id}`, { headers: auth }, (a) => a.status !== 200 || !['queued', 'running'].includes((a.body as { status: string }).status));
  t.match(status.body, { id, status: 'succeeded', progress: { rows: 2, total: 2 } }, 'B answers its status');
  const file = await request(`${B}/api/lookups/${id}/download`, { headers: auth });
  t.equal(file.status, 200, 'downloaded on B');
  const rows = String(file.body).trim().split('\n');
  t.equal(rows.length, 3, 'a header and one row per query');
  t.match(rows[1], /^CCO,\w+,found,1,/, 'ethanol found, the first query first');
  t.match(rows[2], /^no such molecule,\w+,not found,0,/, 'the unknown name not found');
});

t.test('a dump started on A: B answers its status, refuses a second one while it runs, lists it', async (t) => {
  const sub = await request(`${A}/api/dumps`, { method: 'POST', headers: auth, body: JSON.stringify({ sdf3d: false }) });
  t.equal(sub.status, 202, 'dump started on A');
  const { job_id: id, date } = sub.body as { job_id: string; date: string };
  const second = await request(`${B}/api/dumps`, { method: 'POST', headers: auth, body: JSON.stringify({ sdf3d: false, force: true }) });
  const first = await request(`${B}/api/dumps/jobs/${id}`, { headers: auth });
  t.equal(first.status, 200, 'B knows the dump job');
  // B's refusal depends on whether A's dump still ran when B was asked: whichever, never two at once.
  if (second.status === 409) t.match(second.body, { message: new RegExp(`running already: /api/dumps/jobs/${id}`) }, 'B refuses a second dump while it runs');
  else t.equal(second.status, 202, 'the first dump had ended: B starts another');
  const done = await until(`${B}/api/dumps/jobs/${id}`, { headers: auth }, (a) => (a.body as { status?: string })?.status !== 'running');
  t.match(done.body, { id, status: 'succeeded', progress: { rows: MOLECULES.length, total: MOLECULES.length } }, 'B sees it succeed');
  if (second.status === 202) {
    const other = (second.body as { job_id: string }).job_id;
    await until(`${A}/api/dumps/jobs/${other}`, { headers: auth }, (a) => (a.body as { status?: string })?.status !== 'running');
  }
  const list = await request(`${B}/api/dumps`);
  t.match(list.body, { data: [{ date }] }, 'B lists the dump written by A');
});

t.test('the rate-limit budget of a client is shared: spent on A, refused on B', async (t) => {
  const login = (base: string) =>
    request(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.org', password: 'wrong' }) });
  const onA: number[] = [];
  for (let i = 0; i < WRITES; i++) onA.push((await login(A)).status);
  t.same(onA, Array(WRITES).fill(401), `${WRITES} logins on A, all counted and answered`);
  const onB = await login(B);
  t.equal(onB.status, 429, 'B refuses the next one: it saw the count of A');
  const again = await login(A);
  t.equal(again.status, 429, 'and so does A');
});
