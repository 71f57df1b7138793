/**
 * An import killed with SIGKILL resumes where it stopped: `npm run catalog:import` of the LOTUS
 * sample (1,000 rows) is killed once its job has checkpointed some rows and is still running,
 * then run again on the same file; the catalog it leaves must equal the one an uninterrupted
 * import of the file leaves in another DATA_DIR: the same molecules (InChIKey, identifier,
 * name), each linked to the same organisms, citations and collections, and the same
 * `molecule_count`s, with nothing duplicated and no row lost.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { openStore } from '../../api/catalog/store/open.ts';
import { ImportJobs } from '../../api/catalog/import/jobs.ts';
import { silentLogger } from '../../shared/log.ts';
import { fakeDerive } from '../catalog/helper.ts';
import type { Teardown as Tap } from '../helpers/task.ts';

// Three imports of the 1,000-row LOTUS sample with real derivation: more than tap's default
// per-file limit on a busy 2-core machine. (A limit of the harness, not a timing assertion.)
t.setTimeout(900_000);
const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../api/catalog/import/cli.ts');
const LOTUS = new URL('../../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url).pathname;
const env = (dataDir: string) => ({ ...process.env, DATA_DIR: dataDir, MONGO_URL: '', REDIS_URL: '', WORKERS: '2', IMPORT_CHUNK: '16' });

/** What a catalog holds, independent of ids: per molecule its links by their keys; per organism and collection its count. */
async function contents(dataDir: string) {
  const store = await openStore({ dataDir });
  try {
    const names = async (coll: 'organisms' | 'citations' | 'collections', key: string) =>
      new Map((await store.find(coll, {})).map((d) => [d.id, String(d[key])]));
    const organisms = await names('organisms', 'name');
    const citations = await names('citations', 'doi');
    const collections = await names('collections', 'title');
    const molecules = (await store.find('molecules', {})).map((m) => ({
      key: m.standard_inchi_key,
      identifier: m.identifier,
      name: m.name ?? null,
      organisms: ((m.organism_ids as number[]) ?? []).map((id) => organisms.get(id)).sort(),
      citations: ((m.citation_ids as number[]) ?? []).map((id) => citations.get(id)).sort(),
      collections: ((m.collection_ids as number[]) ?? []).map((id) => collections.get(id)).sort(),
    }));
    molecules.sort((a, b) => String(a.key).localeCompare(String(b.key)));
    const counts = async (coll: 'organisms' | 'collections', key: string) =>
      (await store.find(coll, {})).map((d) => `${String(d[key])}=${String(d.molecule_count)}`).sort();
    return { molecules, organisms: await counts('organisms', 'name'), collections: await counts('collections', 'title'), citations: citations.size };
  } finally {
    await store.close();
  }
}

type JobAt = { status: string; checkpoint: { row: number } | null };

async function record(dataDir: string): Promise<JobAt | undefined> {
  const dir = join(dataDir, 'imports');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n));
  if (!names.length) return undefined;
  return JSON.parse(await readFile(join(dir, names[0]!), 'utf8').catch(() => 'null')) ?? undefined;
}

/**
 * A copy of the LOTUS sample under a fresh folder, imported by the command line into `dataDir`
 * (under the same folder), which is killed with SIGKILL once its job is running and has
 * checkpointed `minRow` rows. Answers the file, the folder and the job's record at the kill.
 */
async function killedImport(t: Tap, tag: string, minRow: number) {
  const root = await mkdtemp(join(tmpdir(), `natprod-import-${tag}-`));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const file = join(root, 'lotus.tsv.gz');
  await copyFile(LOTUS, file);
  const dataDir = join(root, 'data');
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, file], { env: env(dataDir), stdio: 'ignore' });
  const exited = new Promise<string | null>((r) => child.on('exit', (_code, signal) => r(signal)));
  let at: JobAt | undefined;
  for (let i = 0; i < 1200; i++) {
    at = await record(dataDir);
    if (at?.status === 'running' && (at.checkpoint?.row ?? 0) >= minRow) break;
    if (at && !['queued', 'running'].includes(at.status)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  return { root, file, dataDir, at, signal: await exited };
}

t.test('an import killed with SIGKILL resumes from its checkpoint, nothing lost or doubled', async (t) => {
  const { root, file, dataDir: killed, at, signal } = await killedImport(t, 'resume', 100);
  const clean = join(root, 'clean');
  t.equal(at?.status, 'running', 'the import was running when killed');
  t.equal(signal, 'SIGKILL', `killed with SIGKILL after row ${at?.checkpoint?.row} was checkpointed`);
  t.ok((at?.checkpoint?.row ?? 0) < 1000, 'before the end of the file');

  const resumed = await run(process.execPath, ['--import', 'tsx', CLI, file], { env: env(killed) });
  t.match(resumed.stderr, /resuming import [0-9a-f-]{36} of .* after row \d+/, 'the second run resumes the stopped job');
  const summary = JSON.parse(resumed.stdout);
  t.equal(summary.rows, 1000, 'the summary counts every row of the file');
  t.equal(summary.rejected_count, 0);

  await run(process.execPath, ['--import', 'tsx', CLI, file], { env: env(clean) });
  const got = await contents(killed);
  const want = await contents(clean);
  t.equal(new Set(got.molecules.map((m) => m.key)).size, got.molecules.length, 'one molecule per InChIKey');
  t.equal(got.molecules.length, want.molecules.length, `${want.molecules.length} molecules, as an uninterrupted import`);
  t.same(got.molecules, want.molecules, 'the same molecules, identifiers, names and links');
  t.same(got.organisms, want.organisms, 'the same organisms and molecule counts');
  t.same(got.collections, want.collections, 'the same collections and molecule counts');
  t.equal(got.citations, want.citations, 'the same number of citations');
});

t.test("an api's sweep takes up a job whose process was killed", async (t) => {
  const { dataDir, at } = await killedImport(t, 'sweep', 1);
  t.equal(at?.status, 'running', `killed while running, after row ${at?.checkpoint?.row}`);

  // What an api builds (api/services.ts): sweep on; the derivation here is the tests' fake.
  const store = await openStore({ dataDir });
  const jobs = new ImportJobs({ dir: join(dataDir, 'imports'), store, derive: fakeDerive, uploadLimit: 1 << 20, log: silentLogger, sweep: true });
  t.teardown(async () => {
    await jobs.close();
    await store.close();
  });
  await jobs.start();
  const [rec] = await jobs.list();
  t.ok(rec, 'the job is listed');
  let end = await jobs.get(rec!.id);
  for (let i = 0; i < 1200 && ['queued', 'running'].includes(end?.status ?? ''); i++) {
    await new Promise((r) => setTimeout(r, 50));
    end = await jobs.get(rec!.id);
  }
  t.equal(end?.status, 'succeeded', 'the sweep resumed it to its end');
  t.equal(end?.runs, 2, 'in a second run');
  t.equal(end?.summary?.rows, 1000, 'every row of the file counted');
});
