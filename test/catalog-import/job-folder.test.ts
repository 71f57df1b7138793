/**
 * Which process runs an import job (api/catalog/import/job-folder.ts, `claim`): of the processes
 * that read the same record, only one creates the next run folder; a run folder left by a
 * claimer that died before its run reached the record is passed over once it is stale; and a
 * server path outside IMPORT_DIR is refused whether or not it exists.
 */
import t from 'tap';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobFolder, serverFile, STALE_MS } from '../../api/catalog/import/job-folder.ts';
import { HttpError } from '../../api/catalog/schema/types.ts';

t.test('one claimer wins each run', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-job-folder-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const folder = new JobFolder(dir);
  const id = '00000000-0000-4000-8000-000000000001';
  t.equal(await folder.claim(id, 0), 1, 'the creator claims run 1');
  const both = await Promise.all([folder.claim(id, 1), folder.claim(id, 1), folder.claim(id, 1)]);
  t.same(both.sort(), [0, 0, 2], 'three processes that read runs = 1: one runs it (run 2), the others do not');
  await mkdir(join(dir, `${id}.run-3`));
  t.equal(await folder.claim(id, 2), 0, 'a fresh run folder is a run under way');
  const old = (Date.now() - STALE_MS - 1000) / 1000;
  await utimes(join(dir, `${id}.run-3`), old, old);
  t.equal(await folder.claim(id, 2), 4, 'a stale run folder whose run never reached the record is passed over');
});

t.test('server paths stay under IMPORT_DIR', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'natprod-import-root-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const allowed = join(root, 'incoming');
  await mkdir(allowed);
  await writeFile(join(allowed, 'a.csv'), 'smiles\nCCO\n');
  await writeFile(join(root, 'secret.csv'), 'smiles\nCCO\n');
  const status = (p: Promise<unknown>) => p.then(() => 200, (e: unknown) => (e instanceof HttpError ? e.status : 500));
  t.match(await serverFile(allowed, 'a.csv'), { path: join(allowed, 'a.csv'), size: 11 }, 'a file under it');
  t.equal(await status(serverFile(allowed, '../secret.csv')), 403, 'outside, and it exists: 403');
  t.equal(await status(serverFile(allowed, '../nothing.csv')), 403, 'outside, and it does not exist: 403 as well');
  t.equal(await status(serverFile(allowed, join(root, 'secret.csv'))), 403, 'an absolute path outside: 403');
  t.equal(await status(serverFile(allowed, 'missing.csv')), 404, 'missing under it: 404');
  await writeFile(join(allowed, 'notes.xyz'), 'x');
  t.equal(await status(serverFile(allowed, 'notes.xyz')), 422, 'a type no reader takes: 422');
  t.equal(await status(serverFile(undefined, 'a.csv')), 403, 'IMPORT_DIR unset: 403');
});
