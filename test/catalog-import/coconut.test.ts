/**
 * COCONUT's download files (test/fixtures/coconut/, made by test/fixtures/scripts/coconut_downloads.ts
 * from LOTUS structures in COCONUT's exact layout): the readers, identifiers kept, the `|`-joined
 * organisms, collections and DOIs linked without duplicates across rows and files, the next month
 * updating in place and revoking what it left out, and bad files refused row by row.
 *
 * Expected counts from Python's csv module on the fixture:
 *
 *   python3 -c "import csv
 *   r=list(csv.DictReader(open('test/fixtures/coconut/coconut_csv-10-2026.csv',newline='')))
 *   s=lambda c:[v for x in r for v in x[c].split('|') if v]
 *   print(len(r), len(set(s('organisms'))), len(set(s('dois'))), len(set(s('collections'))), len(s('organisms')), len(s('dois')), len(s('collections')))"
 */
import t from 'tap';
import type { Teardown as Tap } from '../helpers/task.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { readImportFile } from '../../api/catalog/import/parse.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import { nextIdentifier, openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import type { ImportRow } from '../../api/catalog/import/types.ts';
import { build } from '../helpers/app.ts';
import { tokenFor } from '../search/export-helpers.ts';

const fx = (f: string) => fileURLToPath(new URL(`../fixtures/coconut/${f}`, import.meta.url));
const rdkit = await loadRDKit();
const cache = new Map<string, ReturnType<typeof deriveMolecule>>();
const derive = (input: { structure: string }) => {
  let d = cache.get(input.structure);
  if (!d) cache.set(input.structure, (d = deriveMolecule(rdkit, input)));
  return structuredClone(d);
};

const csvRows = (text: string) => text.split('\r\n').filter((l) => l);
/** The fixture's counts (python3 above): rows, distinct organisms, DOIs, collections, then their row-wise totals. */
const python = await (async () => {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('python3', ['-c', `import csv
r=list(csv.DictReader(open(${JSON.stringify(fx('coconut_csv-10-2026.csv'))},newline='')))
s=lambda c:[v for x in r for v in x[c].split('|') if v]
r11=list(csv.DictReader(open(${JSON.stringify(fx('coconut_csv-11-2026.csv'))},newline='')))
o11={v for x in r11 for v in x['organisms'].split('|') if v}
print(len(r), len(set(s('organisms'))), len(set(s('dois'))), len(set(s('collections'))), len(s('organisms')), len(s('dois')), len(s('collections')), len(o11-set(s('organisms'))))`]).toString();
  const [rows, organisms, dois, collections, orgLinks, doiLinks, colLinks, newOrganisms] = out.trim().split(' ').map(Number);
  return { rows, organisms, dois, collections, orgLinks, doiLinks, colLinks, newOrganisms };
})();

async function collect(it: AsyncIterable<ImportRow>) {
  const out: ImportRow[] = [];
  for await (const r of it) out.push(r);
  return out;
}

async function fresh(t: Tap): Promise<{ store: CatalogStore; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-coconut-'));
  const store = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { store, dir };
}

t.test('readers: the four layouts, zipped or not, give the same identifiers and values', async (t) => {
  const full = await collect(readImportFile(fx('coconut_csv-10-2026.csv')));
  t.equal(full.length, python.rows);
  const first = full[0];
  t.equal(first.authority, 'coconut');
  t.equal(first.molecule?.identifier, 'CNP9000001.1', 'a stereo variant keeps its .N suffix');
  t.match(first.molecule?.properties, { heavy_atom_count: Number, contains_sugar: Boolean, np_classifier_pathway: [String] });
  t.equal(first.collections?.[0].title, 'COCONUT', 'every row is linked to the COCONUT collection');
  t.equal(full.reduce((n, r) => n + (r.organisms?.length ?? 0), 0), python.orgLinks);
  t.equal(full.reduce((n, r) => n + (r.citations?.length ?? 0), 0), python.doiLinks);
  t.equal(full.reduce((n, r) => n + (r.collections?.length ?? 0), 0), python.colLinks + python.rows);
  const zipped = await collect(readImportFile(fx('coconut_csv-10-2026.zip')));
  t.same(zipped, full, 'the zip reads as the plain file');
  const lite = await collect(readImportFile(fx('coconut_csv_lite-10-2026.zip')));
  t.same(lite.map((r) => r.molecule?.identifier), full.map((r) => r.molecule?.identifier));
  t.ok(lite.every((r) => typeof r.molecule?.annotation_level === 'number' && !r.organisms?.length), 'lite: annotation level, no organisms');
  const sdf = await collect(readImportFile(fx('coconut_sdf_2d-10-2026.zip')));
  t.same(sdf.map((r) => r.molecule?.properties), full.map((r) => r.molecule?.properties), 'SDF items read as the CSV cells (nan = missing)');
  t.same(sdf.map((r) => r.organisms), full.map((r) => r.organisms));
  const sdfLite = await collect(readImportFile(fx('coconut_sdf_2d_lite-10-2026.zip')));
  t.same(sdfLite.map((r) => r.molecule?.identifier), full.map((r) => r.molecule?.identifier));
  t.ok(sdfLite.every((r) => r.molecule?.canonical_smiles.includes('M  END')), 'lite SDF: the molblock is the structure');
});

t.test('a release, its other files, then the next month: ids kept, links without duplicates, update in place, revocation', async (t) => {
  const { store } = await fresh(t);
  const s = await importFile(store, fx('coconut_csv-10-2026.zip'), { derive, revokeAbsent: true });
  t.same(s.rejected, []);
  t.same(s.warnings, [], 'the file\'s descriptors agree with natprod\'s derivation');
  t.same(s.created, {
    molecules: python.rows, organisms: python.organisms, citations: python.dois, collections: python.collections + 1,
    links: python.orgLinks + python.doiLinks + python.colLinks + python.rows,
  });
  t.equal(s.revoked, 0);
  const file = csvRows(await readFile(fx('coconut_csv-10-2026.csv'), 'utf8')).slice(1).map((l) => l.split(',')[0]);
  const mols = await store.find('molecules', {});
  t.same(mols.map((m) => m.identifier).sort(), [...file].sort(), 'every identifier is the file\'s');
  const minted = await nextIdentifier(store);
  t.ok(minted > 'CNP9000045', `a later mint (${minted}) comes after COCONUT's identifiers`);
  const one = mols.find((m) => m.identifier === 'CNP9000004')!;
  t.match(one.properties, { chemical_class: String, np_classifier_pathway: [String] }, 'class columns from the file');

  for (const f of ['coconut_csv_lite-10-2026.zip', 'coconut_sdf_2d-10-2026.zip', 'coconut_sdf_2d_lite-10-2026.zip']) {
    const again = await importFile(store, fx(f), { derive });
    t.same(again.rejected, [], f);
    if (f.includes('lite')) t.ok(again.warnings.every((w) => /the molblock of .* reads as .* the structure is left as it is/.test(w.message)), `${f}: only molblocks that read as other stereo`);
    else t.same(again.warnings, [], f);
    t.same(again.created, { molecules: 0, organisms: 0, citations: 0, collections: 0, links: 0 }, `${f}: nothing new, nothing twice`);
  }
  const levels = await store.find('molecules', {}, { fields: ['annotation_level'] });
  t.ok(levels.every((m) => (m.annotation_level as number) >= 1), 'annotation levels from the lite file');

  const next = await importFile(store, fx('coconut_csv-11-2026.zip'), { derive, revokeAbsent: true, tag: 'import:month-11' });
  t.same(next.rejected, []);
  t.equal(next.created.molecules, 1, 'the new molecule');
  t.equal(next.created.organisms, python.newOrganisms, 'the added organism and the new molecule\'s');
  t.equal(next.revoked, 1, 'the molecule left out is revoked');
  const m10 = csvRows(await readFile(fx('coconut_csv-10-2026.csv'), 'utf8'));
  const gone = m10[5].split(',')[0];
  t.match(await store.findOne('molecules', { identifier: gone }), { status: 'REVOKED', active: false });
  const renamedId = m10[3].split(',')[0];
  const renamed = (await store.findOne('molecules', { identifier: renamedId }))!;
  t.match(renamed, { name: /\(renamed\)$/, cas: ['50-00-0'] });
  t.equal(await store.count('molecules', { identifier: renamedId }), 1, 'updated in place: one molecule with that identifier');
  const trail = await store.find('audits', { auditable_id: renamed.id, tags: 'import:month-11' });
  t.equal(trail.length, 1, 'one audit entry naming the import');
  t.match(trail[0], { event: 'updated', new_values: { name: renamed.name } });
  const revokedTrail = await store.find('audits', { tags: 'import:month-11', 'new_values.status': 'REVOKED' });
  t.equal(revokedTrail.length, 1);
  const c = next.created;
  t.equal(await store.count('audits', { tags: 'import:month-11' }), c.molecules + c.organisms + c.citations + c.collections + 3, 'each record created, and the renamed, the organism-added and the revoked molecule');

  // A release that lists a molecule again: active again when a release had left it out, not when a curator revoked it.
  const curated = m10[7].split(',')[0];
  const cur = (await store.findOne('molecules', { identifier: curated }))!;
  await store.update('molecules', cur.id, { status: 'REVOKED', active: false });
  await store.insertMany('audits', [{ auditable_type: 'App\\Models\\Molecule', auditable_id: cur.id, event: 'updated', user_id: 1, old_values: { status: 'APPROVED' }, new_values: { status: 'REVOKED' }, tags: null, created_at: new Date().toISOString() }] as never[]);
  const again = await importFile(store, fx('coconut_csv-10-2026.zip'), { derive, tag: 'import:month-10-again' });
  t.same(again.rejected, []);
  t.match(await store.findOne('molecules', { identifier: gone }), { status: 'APPROVED', active: true }, 'the molecule a release left out is active again');
  t.ok(again.warnings.some((w) => w.message.includes(`${gone} was revoked when an earlier COCONUT release left it out`)), 'and the summary says so');
  t.equal(await store.count('audits', { tags: 'import:month-10-again', auditable_id: cur.id }), 0, 'the curator\'s revocation is not undone');
  t.match(await store.findOne('molecules', { identifier: curated }), { status: 'REVOKED', active: false }, 'the molecule a curator revoked stays revoked');
  t.ok(again.warnings.some((w) => w.message.includes(`${curated} was revoked here by a curator`)), 'and the summary says so');
});

t.test('bad files change nothing wrong', async (t) => {
  const { store, dir } = await fresh(t);
  const zip = await readFile(fx('coconut_csv-10-2026.zip'));
  const cut = join(dir, 'coconut_csv-10-2026.zip');
  await writeFile(cut, zip.subarray(0, Math.floor(zip.length / 2)));
  await t.rejects(importFile(store, cut, { derive }), { status: 422, message: /not a complete zip archive.*truncated/ }, 'a truncated zip');
  t.equal(await store.count('molecules', {}), 0, 'nothing was written');

  const text = await readFile(fx('coconut_csv-10-2026.csv'), 'utf8');
  const wrong = join(dir, 'wrong.csv');
  await writeFile(wrong, text.replace('heavy_atom_count', 'heavy_atoms'));
  await t.rejects(importFile(store, wrong, { derive }), { status: 422, message: /looks like COCONUT's coconut_csv.*missing heavy_atom_count; unexpected heavy_atoms/ }, 'a wrong header');
  t.equal(await store.count('molecules', {}), 0);

  await importFile(store, fx('coconut_csv-10-2026.csv'), { derive });
  const [head, ...lines] = csvRows(text);
  const clash = join(dir, 'clash.csv');
  const id4 = lines[3].split(',')[0];
  const id5 = lines[4].split(',')[0];
  // row 1: identifier 4 with structure 5 (both here); rows 2-3: one new identifier given to two new structures in the file
  const novel = csvRows(await readFile(fx('coconut_csv-11-2026.csv'), 'utf8')).at(-1)!.replace(/^[^,]+/, 'CNP9999999');
  const other = novel.replace(/^(CNP9999999,)[^,]+/, '$1CCCCCCCCO');
  await writeFile(clash, [head, lines[4].replace(/^[^,]+/, id4), novel, other].join('\r\n') + '\r\n');
  const before = await store.find('molecules', {}, { fields: ['identifier', 'standard_inchi_key', 'name'] });
  const s = await importFile(store, clash, { derive });
  t.match(s.rejected, [
    { row: 1, reason: new RegExp(`identifier ${id4.replace('.', '\\.')} names molecule .* and the row's structure is molecule .*${id5.replace('.', '\\.')}`) },
    { row: 3, reason: /identifier CNP9999999 was given at row 2 to another structure/ },
  ]);
  t.equal(s.rejected_count, 2);
  t.same((await store.find('molecules', {}, { fields: ['identifier', 'standard_inchi_key', 'name'] })).filter((m) => m.identifier !== 'CNP9999999'), before.filter((m) => m.identifier !== 'CNP9999999'), 'the clashing rows changed nothing');
});

t.test('an identifier this catalog minted for another structure moves; the descriptors that disagree are reported per row', async (t) => {
  const { store, dir } = await fresh(t);
  const text = await readFile(fx('coconut_csv-10-2026.csv'), 'utf8');
  const [head, ...lines] = csvRows(text);
  // a molecule of this catalog holding the identifier COCONUT gives to the first row's structure
  await importFile(store, await (async () => {
    const p = join(dir, 'own.smi.csv');
    await writeFile(p, 'smiles,name\nCCCCCCCCCCO,decanol\n');
    return p;
  })(), { derive });
  const own = (await store.findOne('molecules', { name: 'decanol' }))!;
  // the identifier minted here (CNP0000001) in COCONUT's file, and a wrong heavy atom count
  // (total_atom_count, heavy_atom_count, molecular_weight, exact_molecular_weight, molecular_formula)
  const csvLine = lines[0].replace(/^[^,]+/, own.identifier as string);
  const edited = csvLine.replace(/,(\d+),\d+,(\d+\.\d+,\d+\.\d+,C)/, ',$1,99,$2');
  t.not(edited, csvLine);
  const p = join(dir, 'coconut_csv-12-2026.csv');
  await writeFile(p, [head, edited].join('\r\n') + '\r\n');
  const s = await importFile(store, p, { derive });
  t.same(s.rejected, []);
  t.match(s.warnings, [
    { row: 1, message: /CNP0000001 was minted here for another structure.*new identifier/ },
    { row: 1, message: /heavy_atom_count: file 99, derived \d+/ },
  ]);
  const moved = (await store.findByIds('molecules', [own.id]))[0];
  t.not(moved.identifier, own.identifier, 'the catalog\'s own molecule got a new identifier');
  const theirs = (await store.findOne('molecules', { identifier: own.identifier }))!;
  t.not(theirs.id, own.id, 'COCONUT\'s identifier names COCONUT\'s structure');
  t.not((theirs.properties as Record<string, unknown>).heavy_atom_count, 99, 'the derived value is kept where the file disagrees');
});

t.test('over REST: a zipped release uploaded, the next one by path with revoke_absent; audit entries name the job', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-coconut-dir-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const built = await build(t, 'inline', { IMPORT_UPLOAD_LIMIT: '2000000', IMPORT_DIR: dir });
  const { app, services } = built!;
  const admin = await tokenFor(services, 'admin@example.org', 'admin');
  const boundary = '----natprodcoconut';
  const zip = await readFile(fx('coconut_csv-10-2026.zip'));
  const form = (fields: Record<string, string>) => Buffer.concat([
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="coconut_csv-10-2026.zip"\r\nContent-Type: application/zip\r\n\r\n`), zip, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const post = (payload: Buffer | object, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/api/imports', headers: { ...admin, ...headers }, payload });
  const poll = async (id: string) => {
    for (let i = 0; i < 1200; i++) {
      const rec = (await app.inject({ url: `/api/imports/${id}`, headers: admin })).json();
      if (!['queued', 'running'].includes(rec.status)) return rec;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`import ${id} did not end`);
  };
  const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  t.equal((await post(form({ revoke_absent: 'maybe' }), multipart)).statusCode, 422, 'revoke_absent must be true or false');
  const started = await post(form({ revoke_absent: 'true' }), multipart);
  t.equal(started.statusCode, 202);
  t.match(started.json(), { filename: 'coconut_csv-10-2026.zip', revoke_absent: true });
  const done = await poll(started.json().id);
  t.match(done, { status: 'succeeded', summary: { rows: python.rows, created: { molecules: python.rows }, rejected_count: 0, revoked: 0 } });
  const store = services.store;
  t.equal(await store.count('molecules', { identifier: 'CNP9000001.1' }), 1, 'COCONUT\'s identifier kept');
  const entries = await store.count('audits', { tags: `import:${done.id}` });
  t.ok(entries >= python.rows, `${entries} audit entries name the job`);

  await writeFile(join(dir, 'coconut_csv-11-2026.zip'), await readFile(fx('coconut_csv-11-2026.zip')));
  const next = await post({ path: 'coconut_csv-11-2026.zip', revoke_absent: true });
  t.equal(next.statusCode, 202);
  t.match(await poll(next.json().id), { status: 'succeeded', summary: { created: { molecules: 1 }, revoked: 1 } });
});
