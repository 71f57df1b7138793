/**
 * Identifier-to-SMILES lookup against a fake PUG-REST server started here (fake-pugrest.ts):
 * the request made for each kind of identifier (docs/spec/chem-service.md §2.1 (15)), the `input_type` labels,
 * retries on 429, giving up on repeated 500s, timeouts and refused connections (503 naming the
 * database, never a hang), and the per-thread cache.
 */
import t from 'tap';
import { inputTypeOf, routeOf } from '../../shared/extdb/identifier.ts';
import { clearLookupCache, lookupSmiles } from '../../shared/extdb/pubchem.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { extdbTasks } from '../../shared/ops/extdb.tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import { CAFFEINE, CAFFEINE_INCHI, CAFFEINE_KEY, closedPortUrl, ETHANOL, startFakePugRest } from './fake-pugrest.ts';

const fake = await startFakePugRest();
t.teardown(() => fake.close());
const fast = { baseUrl: fake.base, timeoutMs: 2_000, retries: 3, backoffMs: 10 };

t.beforeEach(() => {
  clearLookupCache();
  fake.requests.length = 0;
});

t.test('each identifier kind goes to its PUG-REST request', async (t) => {
  const cases: [string, string | null, string[]][] = [
    ['2519', CAFFEINE, ['GET /compound/cid/2519/property/SMILES/JSON']],
    [CAFFEINE_INCHI, CAFFEINE, [`POST /compound/inchi/cids/txt ${new URLSearchParams({ inchi: CAFFEINE_INCHI })}`, 'GET /compound/cid/2519/property/SMILES/JSON']],
    [CAFFEINE_KEY, CAFFEINE, [`GET /compound/inchikey/${CAFFEINE_KEY}/property/SMILES/JSON`]],
    ['58-08-2', CAFFEINE, ['GET /compound/name/58-08-2/property/SMILES/JSON']],
    ['C8H10N4O2', CAFFEINE, ['GET /compound/fastformula/C8H10N4O2/cids/txt', 'GET /compound/cid/2519/property/SMILES/JSON']],
    ['CCO', ETHANOL, ['POST /compound/smiles/cids/txt smiles=CCO', 'GET /compound/cid/702/property/SMILES/JSON']],
    ['caffeine', CAFFEINE, ['GET /compound/name/caffeine/property/SMILES/JSON']],
    ['  caffeine  ', CAFFEINE, ['GET /compound/name/caffeine/property/SMILES/JSON']],
    ['no such compound', null, ['GET /compound/name/no such compound/property/SMILES/JSON']],
  ];
  for (const [id, smiles, requests] of cases) {
    clearLookupCache();
    fake.requests.length = 0;
    t.equal(await lookupSmiles(id, fast), smiles, `${id} resolves`);
    t.same(fake.requests, requests, `${id}: requests`);
  }
});

t.test('input_type labels and dispatch routes', async (t) => {
  t.same(['2519', CAFFEINE_INCHI, CAFFEINE_KEY, '117-39-5', 'caffeine', 'C8H10N4O2', 'CCO'].map(inputTypeOf),
    ['CID', 'InChI', 'InChIKey', 'CAS', 'name', 'name', 'name']);
  // Upstream's label needs more than five digits: caffeine's CAS number is labelled a name
  // (it is still resolved, through the name route).
  t.equal(inputTypeOf('58-08-2'), 'name');
  t.equal(routeOf('c1ccccc1').kind, 'name', 'lower-case aromatic SMILES are not in the short-SMILES alphabet');
  t.equal(routeOf('CCCCCCCCCCC').kind, 'name', 'more than ten characters is a name');
  t.equal(routeOf('C8H10N4O2').kind, 'formula');
  t.equal(routeOf('CH4').kind, 'smiles', 'every element needs a count for a formula');
});

t.test('429 is retried', async (t) => {
  t.equal(await lookupSmiles('flaky', fast), CAFFEINE);
  t.equal(fake.requests.length, 2, 'one refusal, one answer');
});

t.test('500s exhaust the retries and answer 503', async (t) => {
  await t.rejects(lookupSmiles('broken', fast), {
    status: 503,
    message: `External compound database ${fake.base} unreachable: HTTP 500 (4 attempts)`,
  });
  t.equal(fake.requests.length, 4, 'first attempt and three retries');
});

t.test('a server that never answers times out with 503', async (t) => {
  const t0 = Date.now();
  await t.rejects(lookupSmiles('silent', { ...fast, timeoutMs: 200, retries: 1 }), {
    status: 503,
    message: `External compound database ${fake.base} unreachable: no answer within 200 ms (2 attempts)`,
  });
  t.ok(Date.now() - t0 < 3_000, 'bounded by the timeouts');
});

t.test('a refused connection answers 503', async (t) => {
  const url = await closedPortUrl();
  await t.rejects(lookupSmiles('caffeine', { ...fast, baseUrl: url }), {
    status: 503,
    message: `External compound database ${url} unreachable: ECONNREFUSED (4 attempts)`,
  });
});

t.test('a cancelled job stops the lookup with its own reason', async (t) => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(Object.assign(new Error('Job cancelled'), { status: 499 })), 50);
  await t.rejects(lookupSmiles('silent', { ...fast, signal: ac.signal }), { message: 'Job cancelled' });
});

t.test('answers are cached (found and not found), failures are not', async (t) => {
  await lookupSmiles('caffeine', fast);
  await lookupSmiles('no such compound', fast);
  const n = fake.requests.length;
  t.equal(await lookupSmiles('caffeine', fast), CAFFEINE);
  t.equal(await lookupSmiles('no such compound', fast), null);
  t.equal(fake.requests.length, n, 'no request for cached answers');
  await t.rejects(lookupSmiles('broken', fast));
  await t.rejects(lookupSmiles('broken', fast));
  t.equal(fake.requests.length, n + 8, 'a failure is asked again');
});

t.test('the extdb_lookup task reads EXTDB_URL and answers the upstream shape', async (t) => {
  const config = { ...threadConfig(loadConfig()), EXTDB_URL: fake.base, EXTDB_TIMEOUT_MS: 2000 };
  const ctx = { signal: new AbortController().signal, progress: () => {}, config } as unknown as TaskContext;
  t.same(await extdbTasks.extdb_lookup({ identifier: '2519' }, ctx), { input: '2519', canonical_smiles: CAFFEINE, input_type: 'CID', success: true });
  t.same(await extdbTasks.extdb_lookup({ identifier: 'no such compound' }, ctx),
    { input: 'no such compound', canonical_smiles: null, input_type: 'name', success: false });
});
