/**
 * The `retrieve_extdb_smiles` operation through its api handler: the required identifier, the
 * local catalog first (embedded store in a temp dir), then the external database through the job
 * runner (inline runner running the task here, fake PUG-REST server on loopback).
 */
import type { TaskTable } from '../../shared/ops/types.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openStore } from '../../api/catalog/store/open.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { clearLookupCache } from '../../shared/extdb/pubchem.ts';
import type { TaskExecutor } from '../../shared/jobs/executor.ts';
import { createInlineRunner } from '../../shared/jobs/inline.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';
import { extdbOps } from '../../shared/ops/extdb.ts';
import { retrieveExtdbSmiles } from '../../api/chem/handlers/extdb.ts';
import { extdbTasks } from '../../shared/ops/extdb.tasks.ts';
import type { ApiContext } from '../../api/chem/context.ts';
import { CAFFEINE, closedPortUrl, startFakePugRest } from './fake-pugrest.ts';

const fake = await startFakePugRest();
t.teardown(() => fake.close());

// The api's configuration and the one its threads get, both pointing at the fake database.
const config = { ...loadConfig(), EXTDB_URL: fake.base, EXTDB_TIMEOUT_MS: 2000 };
const taskConfig = threadConfig(config);
const execute: TaskExecutor = async (task, args, hooks) => {
  hooks.onStart?.();
  return (extdbTasks as TaskTable)[task](args, { signal: hooks.signal ?? new AbortController().signal, progress: () => {}, config: taskConfig } as never);
};
const runner = createInlineRunner({ execute, timeouts: { quickMs: 60_000, longMs: 60_000, waitMs: 60_000, resultTtlSeconds: 60 } });
t.teardown(() => runner.close());

/** A runner that must not be used (the answer has to come from the catalog). */
const untouchable = new Proxy({}, { get: () => () => { throw new Error('the runner was used'); } }) as JobRunner;

const dir = await mkdtemp(join(tmpdir(), 'natprod-extdb-'));
const store = await openStore({ dataDir: dir });
t.teardown(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});
await store.insert('molecules', {
  identifier: 'CNP0228556', name: 'Theobromine', cas: ['83-67-0'], standard_inchi_key: 'YAPQBXQYLJRXSA-UHFFFAOYSA-N',
  canonical_smiles: 'CN1C(=O)NC(=O)C2=C1N=CN2C',
});
const THEOBROMINE = 'CN1C(=O)NC(=O)C2=C1N=CN2C';

const ctx = (r: JobRunner, withStore = true): ApiContext => ({ runner: r, config, store: withStore ? store : undefined, baseUrl: 'http://x', prefix: '' });

t.test('registry entry', async (t) => {
  const [op] = extdbOps;
  t.equal(op.name, 'retrieve_extdb_smiles');
  t.equal(op.path, '/chem/extdb/smiles');
  t.equal(op.task, 'extdb_lookup');
  t.equal(op.handler, 'api');
  t.same(op.args.parse({ identifier: 'caffeine' }), { identifier: 'caffeine' });
});

t.test('an empty identifier is refused', async (t) => {
  for (const identifier of ['', '   ']) {
    await t.rejects(retrieveExtdbSmiles({ identifier }, ctx(untouchable)), { status: 422, message: 'Chemical identifier is required' });
  }
});

t.test('the local catalog answers first', async (t) => {
  for (const [identifier, type] of [['CNP0228556', 'name'], ['Theobromine', 'name'], ['theobromine', 'name'], ['83-67-0', 'name'],
    ['YAPQBXQYLJRXSA-UHFFFAOYSA-N', 'InChIKey']]) {
    t.same(await retrieveExtdbSmiles({ identifier }, ctx(untouchable)),
      { input: identifier, canonical_smiles: THEOBROMINE, input_type: type, success: true }, `${identifier} from the catalog`);
  }
});

t.test('otherwise the external database', async (t) => {
  clearLookupCache();
  fake.requests.length = 0;
  t.same(await retrieveExtdbSmiles({ identifier: 'caffeine' }, ctx(runner)),
    { input: 'caffeine', canonical_smiles: CAFFEINE, input_type: 'name', success: true });
  t.same(fake.requests, ['GET /compound/name/caffeine/property/SMILES/JSON']);
  t.same(await retrieveExtdbSmiles({ identifier: 'no such compound' }, ctx(runner, false)),
    { input: 'no such compound', canonical_smiles: null, input_type: 'name', success: false }, 'not found is a 200 answer');
});

t.test('an unreachable database is a 503 naming it', async (t) => {
  clearLookupCache();
  const url = await closedPortUrl();
  taskConfig.EXTDB_URL = url;
  t.teardown(() => { taskConfig.EXTDB_URL = fake.base; });
  await t.rejects(retrieveExtdbSmiles({ identifier: 'caffeine' }, ctx(runner)), {
    status: 503,
    message: new RegExp(`^External compound database ${url.replace(/[.]/g, '\\.')} unreachable: ECONNREFUSED \\(4 attempts\\)`),
  });
});
