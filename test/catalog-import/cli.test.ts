/**
 * `npm run catalog:import` as a child process against an embedded store that a running service
 * instance holds open and keeps writing to: nothing lost, no id collision, and the service sees
 * the imported molecules at its next request (lock file + reload, api/catalog/store/embedded.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import Fastify from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import { fakeDerive } from '../catalog/helper.ts';
import { answerCheck } from '../helpers/openapi-check.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../api/catalog/import/cli.ts');

t.test('import CLI while the service runs on the same DATA_DIR', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-import-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const store = await openStore({ dataDir: dir });
  const app = Fastify();
  answerCheck(t, app);
  await app.register(catalogPlugin, { store, derive: fakeDerive });
  const token = await issueToken(store, (await ensureUser(store, 'svc@x.org', 'curator')).id);
  const call = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });

  // 25 primary alcohols C1..C25 (distinct InChIKeys) and one unreadable SMILES.
  const csv = join(dir, 'alcohols.csv');
  const smiles = Array.from({ length: 25 }, (_, k) => `${'C'.repeat(k + 1)}O`);
  await writeFile(csv, ['smiles,name,organism', ...smiles.map((s, k) => `${s},alcohol ${k + 1},Saccharomyces cerevisiae`), 'C1CC(,broken,'].join('\n') + '\n');

  const child = run(process.execPath, ['--import', 'tsx', CLI, csv], { env: { ...process.env, DATA_DIR: dir, MONGO_URL: '' } });
  let serviceWrites = 0;
  let finished = false;
  const statuses = new Set<number>();
  void child.finally(() => (finished = true));
  // The service keeps creating molecules for as long as the import runs (and at least 10 times).
  while (!finished || serviceWrites < 10) {
    const r = await call('/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: `service ${serviceWrites}` } }] });
    statuses.add(r.statusCode);
    serviceWrites++;
  }
  t.same([...statuses], [200], `the service answered all ${serviceWrites} writes made during the import`);
  const { stdout } = await child;
  const summary = JSON.parse(stdout);
  t.match(summary, { file: csv, rows: 26, created: { molecules: 25, organisms: 1, links: 25 }, rejected: [{ row: 26, reason: /C1CC\(/ }] });

  const seen = await call('/api/molecules/search', { search: { filters: [{ field: 'name', operator: 'like', value: 'alcohol %' }], limit: 50 } });
  t.equal(seen.json().total, 25, 'the service sees every imported molecule at once');
  t.equal((await call('/api/organisms/search', { search: { filters: [{ field: 'name', value: 'Saccharomyces cerevisiae' }] } })).json().data[0].molecule_count, 25);
  const all = await store.find('molecules', {});
  t.equal(all.length, 25 + serviceWrites, 'no write of either process lost');
  t.equal(new Set(all.map((d) => d.id)).size, all.length, 'no id collision');
  t.equal(new Set(all.map((d) => d.identifier).filter(Boolean)).size, 25, 'identifiers unique');

  await app.close();
  await store.close();
  const reopened = await openStore({ dataDir: dir });
  t.equal(await reopened.count('molecules', {}), 25 + serviceWrites, 'all of it on disk after both closed');
  await reopened.close();
});
