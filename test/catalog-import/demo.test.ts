/**
 * First-start seeding with the shipped demo set (real derivation, RDKit WASM), checked against
 * counts from an independent reader, Python's csv module, on the uncompressed originals in
 * ../shared/data (same bytes as the shipped .gz; sha256 in api/catalog/data/README.md):
 *
 *   python3 - <<'EOF'
 *   import csv
 *   S=list(csv.DictReader(open('lotus_sample_1000.tsv',newline=''),delimiter='\t'))
 *   V=list(csv.DictReader(open('lotus_manually_validated_413.tsv',newline=''),delimiter='\t'))
 *   L=list(csv.DictReader(open('lotus_source_databases.csv',newline='')))
 *   C=list(csv.DictReader(open('coconut_collections.csv',newline='')))
 *   na=lambda v: None if v is None or v.strip() in ('','NA','NULL') else v.strip()
 *   src={r['identifier']:r['title'] for r in L}
 *   mol,org,cit,col,mo,mc,ml=set(),set(),set(),set(),set(),set(),set()
 *   for x in V:
 *     k=x['structureCleanedInchikey3D']; mol.add(k); o=na(x['organismCleaned']); d=na(x['referenceCleanedDoi']); db=na(x['database_name'])
 *     if o: org.add(o); mo.add((k,o))
 *     if d: cit.add(d.lower()); mc.add((k,d.lower()))
 *     if db: col.add(src.get(db,db)); ml.add((k,src.get(db,db)))
 *   for x in S:
 *     k=x['structure_inchikey']; mol.add(k); o=na(x['organism_name']); d=na(x['reference_doi'])
 *     if o: org.add(o); mo.add((k,o))
 *     if d: cit.add(d.lower()); mc.add((k,d.lower()))
 *     col.add('LOTUS'); ml.add((k,'LOTUS'))
 *   col|={r['title'] for r in L}|{r['title'] for r in C}
 *   print(len(mol),len(org),len(cit),len(col),len(mo),len(mc),len(ml),len({k for k,t in ml if t=='LOTUS'}))
 *   EOF
 *   → 1242 1234 1348 93 1396 1396 1290 902
 *
 * The molecules are keyed by the InChIKey derived here (RDKit) and the expected ones by LOTUS's
 * keys, so equal counts with no warnings also mean the derived keys equal LOTUS's.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import { seedDemoIfEmpty } from '../../api/catalog/import/demo.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { fakeDerive, memoryLog } from '../catalog/helper.ts';
import { answerCheck } from '../helpers/openapi-check.ts';

const rdkit = await loadRDKit();
// As in the service, the derivation is asynchronous (a worker job): give the event loop a turn.
// Memoised by structure for this file: the resumed import below reuses the first test's
// derivations instead of deriving the demo set a second time.
const derived = new Map<string, Promise<DerivedMolecule>>();
const derive = async (i: DeriveInput) => {
  await new Promise((r) => setImmediate(r));
  let d = derived.get(i.structure);
  if (!d) derived.set(i.structure, (d = Promise.resolve().then(() => deriveMolecule(rdkit, i))));
  return d;
};
/** The counts of the independent reader above: molecules, organisms, citations, collections. */
const EXPECTED = [1242, 1234, 1348, 93];

async function freshStore(t: { teardown: (fn: () => unknown) => void }): Promise<CatalogStore> {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-demo-'));
  const store = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return store;
}

t.test('seeding an empty store with the demo set, in the background', async (t) => {
  const store = await freshStore(t);
  const app = Fastify();
  answerCheck(t, app);
  await app.register(catalogPlugin, { store, derive });
  t.teardown(() => app.close());
  const token = await issueToken(store, (await ensureUser(store, 'newcomer@x.org', 'reader')).id);
  const log = memoryLog();

  const handle = await seedDemoIfEmpty(store, { derive, log });
  t.equal(handle.status().state, 'running', 'resolves at once with a running import');
  const r = await app.inject({ method: 'POST', url: '/api/molecules/search', headers: { authorization: `Bearer ${token}` }, payload: { search: { limit: 10 } } });
  t.equal(r.statusCode, 200, 'the catalog answers while the import runs');
  t.equal(handle.status().state, 'running');

  const end = await handle.done;
  t.equal(end.state, 'done', JSON.stringify(end));
  t.same(end.created, { molecules: 1242, organisms: 1234, citations: 1348, collections: 93, links: 1396 + 1396 + 1290 });
  t.equal(end.rejected, 0);
  t.equal(end.rows, 40 + 63 + 413 + 1000);
  t.same(
    [await store.count('molecules', {}), await store.count('organisms', {}), await store.count('citations', {}), await store.count('collections', {})],
    EXPECTED,
  );
  const orgs = await store.find('organisms', {}, { fields: ['molecule_count'] });
  t.equal(orgs.reduce((n, o) => n + (o.molecule_count as number), 0), 1396, 'organism molecule_count sums to the molecule-organism pairs');
  t.equal((await store.findOne('collections', { title: 'LOTUS' }))?.molecule_count, 902, 'LOTUS collection: every structure of the export sample');
  t.equal(await store.count('molecules', { identifier: { $regex: /^CNP\d{7}(\.\d+)?$/ } }), 1242, 'every molecule has an identifier');
  // Stereo families share a number (COCONUT's AssignIdentifiers: the parent without stereo `CNPnnnnnnn`,
  // its variants `.1`, `.2`...), checked against families read here: the standard InChI without /b /t /m /s.
  const all = await store.find('molecules', {}, { fields: ['identifier', 'standard_inchi'] });
  const flat = (inchi: string) => inchi.split('/').filter((l, i) => i === 0 || !'btms'.includes(l[0])).join('/');
  const byFamily = new Map<string, { identifier: string; inchi: string }[]>();
  for (const m of all) {
    const f = flat(m.standard_inchi as string);
    byFamily.set(f, [...(byFamily.get(f) ?? []), { identifier: m.identifier as string, inchi: m.standard_inchi as string }]);
  }
  const numberOf = (id: string) => id.split('.')[0];
  const families = [...byFamily.entries()].filter(([, ms]) => ms.length > 1);
  t.ok(families.length > 5, `${families.length} stereo families of two or more in the demo set`);
  t.same(families.filter(([, ms]) => new Set(ms.map((m) => numberOf(m.identifier))).size !== 1).map(([f]) => f), [], 'each family\'s members share one number');
  t.equal(new Set(families.map(([, ms]) => numberOf(ms[0].identifier))).size, families.length, 'no two families share a number');
  const members = [...byFamily.entries()].flatMap(([f, ms]) => ms.map((m) => ({ ...m, parent: m.inchi === f })));
  const parents = members.filter((m) => m.parent);
  const variants = members.filter((m) => !m.parent);
  t.ok(parents.length > 100 && parents.every((m) => /^CNP\d{7}$/.test(m.identifier)), `the ${parents.length} molecules without stereo have a bare number`);
  t.ok(variants.length > 100 && variants.every((m) => /^CNP\d{7}\.[1-9]\d*$/.test(m.identifier)), `the ${variants.length} molecules with stereo have a suffix .1, .2 ...`);
  t.ok(log.lines.includes('info: demo import done: {"molecules":1242,"organisms":1234,"citations":1348,"collections":93,"links":4082}'));
  t.notOk(log.lines.some((l) => l.startsWith('warn') || l.startsWith('error')));

  const again = await seedDemoIfEmpty(store, { derive, log });
  t.match(again.status(), { state: 'skipped', reason: /^the demo set was imported on / }, 'once done, never again');
  const search = await app.inject({ method: 'POST', url: '/api/organisms/search', headers: { authorization: `Bearer ${token}` }, payload: { search: { filters: [{ field: 'molecules.name', operator: 'like', value: '%quercetin%' }], limit: 10 } } });
  t.ok(search.json().total > 0, 'a newcomer can search real natural products');
});

t.test('nothing is seeded into a catalog that has data, another store kind, or a store another process seeds', async (t) => {
  const log = memoryLog();
  const used = await freshStore(t);
  await used.insert('organisms', { name: 'Homo sapiens' });
  t.match((await seedDemoIfEmpty(used, { derive: fakeDerive, log })).status(), { state: 'skipped', reason: 'the catalog is not empty (organisms)' });
  t.equal(await used.count('molecules', {}), 0);

  const mongoLike = new Proxy(await freshStore(t), { get: (s, p) => (p === 'kind' ? 'mongo' : Reflect.get(s, p, s)) });
  t.match((await seedDemoIfEmpty(mongoLike, { derive: fakeDerive, log })).status(), { state: 'skipped', reason: /not the embedded store/ });

  const busy = await freshStore(t);
  await busy.insert('meta', { key: 'demo_seed', state: 'running', pid: process.ppid });
  t.match((await seedDemoIfEmpty(busy, { derive: fakeDerive, log })).status(), { state: 'skipped', reason: `process ${process.ppid} is importing the demo set` });
});

t.test('a stopped import resumes at the next start and ends as a straight one', async (t) => {
  const log = memoryLog();
  const store = await freshStore(t);
  const first = await seedDemoIfEmpty(store, { derive, log });
  while (first.status().filesDone < 3) await new Promise((r) => setTimeout(r, 5)); // into the last file
  await first.stop();
  const stopped = first.status();
  t.equal(stopped.state, 'stopped');
  t.ok(stopped.rows < 1516, `stopped after ${stopped.rows} rows`);
  t.match(await store.findOne('meta', { key: 'demo_seed' }), { state: 'running' }, 'the marker says: not finished');

  const second = await seedDemoIfEmpty(store, { derive, log });
  t.equal((await second.done).state, 'done');
  // A straight import gives the independent reader's counts (first test): no duplicates here.
  const counts = await Promise.all((['molecules', 'organisms', 'citations', 'collections'] as const).map((c) => store.count(c, {})));
  t.same(counts, EXPECTED, 'molecules, organisms, citations, collections: no duplicates from the resumed import');
  const orgs = await store.find('organisms', {}, { fields: ['molecule_count'] });
  t.equal(orgs.reduce((n, o) => n + (o.molecule_count as number), 0), 1396, 'organism molecule counts as after a straight import');
});
