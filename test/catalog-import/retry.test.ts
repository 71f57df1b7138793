/**
 * What an import job does when its derivations fail for a reason other than the rows
 * (api/catalog/import/derive-cache.ts): a 503 (the job queue's Redis restarting) or a 500 (a
 * thread that died) is tried again until the derivations answer, and the import ends with every
 * row; a chunk refused as a whole with a 4xx (a WebAssembly fault) is derived one structure per
 * task, so only the bad row is rejected; a fault that outlasts the retry window fails the job and
 * keeps the rows written before it. The derivation is the catalog tests' fake (test/catalog/helper.ts):
 * what is checked is the job, not chemistry.
 */
import t from 'tap';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.ts';
import { silentLogger } from '../../shared/log.ts';
import { ImportJobs } from '../../api/catalog/import/jobs.ts';
import type { DeriveMany } from '../../api/catalog/import/derive-cache.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import { fakeDerive } from '../catalog/helper.ts';
import type { Teardown as Tap } from '../helpers/task.ts';

const ROWS = 40;
const CSV = ['smiles,name', ...Array.from({ length: ROWS }, (_, k) => `${'C'.repeat(k + 1)}O,alcohol ${k + 1}`)].join('\n') + '\n';

async function setup(t: Tap, deriveMany: DeriveMany, retryForMs = 60_000) {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-import-retry-'));
  const store = await openStore({ dataDir: dir });
  const jobs = new ImportJobs({ dir: join(dir, 'imports'), store, derive: fakeDerive, deriveMany, chunk: 8, uploadLimit: 1 << 20, log: silentLogger, retryForMs });
  t.teardown(async () => {
    await jobs.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'alcohols.csv');
  await writeFile(file, CSV);
  const st = await stat(file);
  const rec = await jobs.submitPath({ path: file, size: st.size, mtimeMs: st.mtimeMs }, { userId: null });
  return { store, end: await jobs.settled(rec.id) };
}

const many = (structures: string[]) => Promise.all(structures.map((s) => fakeDerive({ structure: s })));

t.test('a queue that is down for a while: the chunks are tried again and every row loads', async (t) => {
  let calls = 0;
  const { store, end } = await setup(t, async (structures) => {
    calls++;
    if (calls <= 3) throw new AppError(503, 'Job queue (Redis) unavailable: connect ECONNREFUSED', 'unavailable');
    return many(structures);
  });
  t.equal(end?.status, 'succeeded', 'the job succeeds');
  t.match(end?.summary, { rows: ROWS, created: { molecules: ROWS }, rejected_count: 0 });
  t.equal((await store.find('molecules', {})).length, ROWS, 'every row is in the store');
  t.ok(calls > 3, `${calls} derivation calls, 3 of them refused`);
});

t.test('a chunk refused as a whole (4xx): its structures one by one, only the bad one rejected', async (t) => {
  const { end } = await setup(t, async (structures) => {
    if (structures.some((s) => s === 'C'.repeat(13) + 'O')) throw new AppError(422, 'RDKit WebAssembly fault', 'wasm_fault');
    return many(structures);
  });
  t.equal(end?.status, 'succeeded');
  t.match(end?.summary, { rows: ROWS, created: { molecules: ROWS }, rejected_count: 0 }, 'the fallback derived every structure of the refused chunk');
});

t.test('a fault that outlasts the retry window fails the job, and the rows before it stay', async (t) => {
  let calls = 0;
  const { store, end } = await setup(
    t,
    async (structures) => {
      if (++calls > 2) throw new AppError(500, 'the thread running this task died', 'internal');
      return many(structures);
    },
    1_200,
  );
  t.equal(end?.status, 'failed', 'the job fails');
  t.match(end?.error, /thread running this task died/, 'naming the fault');
  const kept = (await store.find('molecules', {})).length;
  t.ok(kept >= 8 && kept < ROWS, `${kept} rows written before the fault stay`);
  t.ok((end?.checkpoint?.row ?? 0) <= kept, 'the checkpoint claims no row that is not in the store');
});
