/**
 * importFile into a fresh embedded store with real derivation (RDKit WASM). Expected counts from
 * Python's csv module on ../shared/data/lotus_manually_validated_413.tsv (same bytes as the
 * shipped .gz):
 *
 *   python3 -c "import csv
 *   r=list(csv.DictReader(open('../shared/data/lotus_manually_validated_413.tsv',newline=''),delimiter='\t'))
 *   k='structureCleanedInchikey3D'
 *   print(len({x[k] for x in r}), len({x['organismCleaned'] for x in r}),
 *         len({x['referenceCleanedDoi'].lower() for x in r}), len({x['database_name'] for x in r}),
 *         len({(x[k],x['organismCleaned']) for x in r}), len({(x[k],x['referenceCleanedDoi'].lower()) for x in r}),
 *         len({(x[k],x['database_name']) for x in r}))"
 *   → 383 348 395 16 400 400 388
 *
 * Of the 16 source codes, 15 are rows of lotus_source_databases.csv (40 rows); `nanpdb` is not,
 * so importing the source table first and then the set creates 40 + 1 collections.
 * The derived InChIKey equals LOTUS's for every structure (no warnings), which also checks
 * derivation against LOTUS on all 383 structures.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { emptySummary, importFile } from '../../api/catalog/import/run.ts';
import { openStore } from '../../api/catalog/store/open.ts';

const data = (f: string) => fileURLToPath(new URL(`../../api/catalog/data/${f}`, import.meta.url));
const rdkit = await loadRDKit();
const derive = (input: { structure: string }) => deriveMolecule(rdkit, input);

t.test('LOTUS source table, then the manually validated set', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-import-'));
  const store = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const sources = await importFile(store, data('lotus_source_databases.csv.gz'), { derive });
  t.equal(sources.created.collections, 40);

  const progress: number[] = [];
  const s = await importFile(store, data('lotus_manually_validated_413.tsv.gz'), { derive, onProgress: (p) => progress.push(p.row) });
  t.equal(s.rows, 413);
  t.same(s.rejected, []);
  t.same(s.warnings, [], 'derived InChIKeys equal LOTUS keys');
  t.same(s.created, { molecules: 383, organisms: 348, citations: 395, collections: 1, links: 400 + 400 + 388 });
  t.equal(progress.at(-1), 413, 'progress reaches the last row');

  t.equal(await store.count('molecules', {}), 383);
  t.equal(await store.count('organisms', {}), 348);
  t.equal(await store.count('citations', {}), 395);
  t.equal(await store.count('collections', {}), 41);
  const orgs = await store.find('organisms', {});
  t.equal(orgs.reduce((n, o) => n + (o.molecule_count as number), 0), 400, 'organism molecule_count = distinct molecule-organism pairs');
  const cols = await store.find('collections', {});
  t.equal(cols.reduce((n, c) => n + ((c.molecule_count as number | undefined) ?? 0), 0), 388, 'collection molecule_count');

  const mol = await store.findOne('molecules', { standard_inchi_key: 'GNCMMKJNEMBGHM-UHFFFAOYSA-N' });
  t.match(mol, { identifier: /^CNP\d{7}$/, status: 'APPROVED', has_stereo: false, properties: { molecular_formula: 'C20H11N3O3' } });
  t.equal((mol!.organism_ids as number[]).length, 1);
  const knapsack = await store.findOne('collections', { title: 'KNApSAcK' });
  // awk -F'\t' 'NR>1 && $2=="knapsack"{print $5}' lotus_manually_validated_413.tsv | sort -u | wc -l → 37
  t.equal(knapsack?.molecule_count, 37, 'distinct KNApSAcK structures');
});

t.test('re-import updates instead of duplicating; bad rows are rejected with reasons', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-import-'));
  const store = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  // The first 25 records of the validated set, plus a generic CSV with one unparsable structure.
  const lines = gunzipSync(await readFile(data('lotus_manually_validated_413.tsv.gz'))).toString('utf8').split('\n');
  const part = join(dir, 'part.tsv');
  await writeFile(part, lines.slice(0, 26).join('\n') + '\n');
  const first = await importFile(store, part, { derive });
  const again = await importFile(store, part, { derive });
  t.ok(first.created.molecules > 0);
  t.same(again.created, { molecules: 0, organisms: 0, citations: 0, collections: 0, links: 0 }, 'nothing new the second time');
  t.equal(again.updated.molecules, first.created.molecules, 'every molecule matched by InChIKey');
  t.equal(await store.count('molecules', {}), first.created.molecules);

  const csv = join(dir, 'mixed.csv');
  await writeFile(csv, 'smiles,name,doi\nC1CC(,broken,10.1/X\n,empty,\nOC(=O)c1ccccc1O,salicylic acid,10.1/X\n');
  const mixed = await importFile(store, csv, { derive });
  t.equal(mixed.rejected.length, 2);
  t.match(mixed.rejected[0], { row: 1, reason: /C1CC\(/ });
  t.match(mixed.rejected[1], { row: 2, reason: /no structure/ });
  t.same(mixed.created, { molecules: 1, organisms: 0, citations: 1, collections: 0, links: 1 });

  // An SD file, gzip-compressed: ethanol by molblock (InChIKey LFQSCWFLJHTTHZ-UHFFFAOYSA-N, the
  // standard InChIKey of ethanol), named by its title line, with an organism item; then salicylic
  // acid again (matched, not duplicated).
  const mol = (title: string, atoms: string[], bonds: string[]) =>
    `${title}\n  manual\n\n${String(atoms.length).padStart(3)}${String(bonds.length).padStart(3)}  0  0  0  0  0  0  0  0999 V2000\n` +
    atoms.map((a) => `    0.0000    0.0000    0.0000 ${a.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`).join('\n') + '\n' +
    bonds.map((b) => b.split(' ').map((x) => x.padStart(3)).join('') + '  0').join('\n') + '\nM  END\n';
  const sdf = join(dir, 'two.sdf.gz');
  await writeFile(sdf, gzipSync(
    mol('ethanol', ['C', 'C', 'O'], ['1 2 1', '2 3 1']) + '> <organism>\nVitis vinifera\n\n$$$$\n' +
    mol('', ['C', 'C', 'O', 'O', 'C', 'C', 'C', 'C', 'C', 'O'], ['1 2 1', '1 3 2', '1 4 1', '2 5 2', '5 6 1', '6 7 2', '7 8 1', '8 9 2', '9 2 1', '9 10 1']) + '$$$$\n',
  ));
  const s2 = await importFile(store, sdf, { derive });
  t.same(s2.rejected, []);
  t.match(s2, { rows: 2, created: { molecules: 1, organisms: 1, links: 1 }, updated: { molecules: 1 } });
  t.match(await store.findOne('molecules', { standard_inchi_key: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N' }), { name: 'ethanol', canonical_smiles: 'CCO' });
  t.equal(await store.count('molecules', { standard_inchi_key: 'YGSDEFSMJLZEOE-UHFFFAOYSA-N' }), 1, 'salicylic acid once');
});

t.test('a resumed import drops the links a kill left naming lost records, then links again', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-dangling-'));
  const store = await openStore({ dataDir: join(dir, 'data') });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  const csv = join(dir, 'two.csv');
  await writeFile(csv, 'smiles,name,organism\nCCO,ethanol,Vitis vinifera\nOC(=O)c1ccccc1O,salicylic acid,Salix alba\n');
  await importFile(store, csv, { derive });
  const salicylic = (await store.findOne('molecules', { name: 'salicylic acid' }))!;
  const willow = (await store.findOne('organisms', { name: 'Salix alba' }))!;
  // What a SIGKILL can leave: the molecule's link written, the organism's insert lost.
  await store.remove('organisms', [willow.id]);
  const summary = await importFile(store, csv, { derive, resume: { afterRow: 1, summary: emptySummary() } });
  t.equal(summary.rows, 1, 'only the row after the checkpoint read again');
  const after = (await store.findByIds('molecules', [salicylic.id]))[0]!;
  const orgs = await store.findByIds('organisms', (after.organism_ids as number[]) ?? []);
  t.same(orgs.map((o) => o.name), ['Salix alba'], 'one link, to the organism the row names, which exists');
  t.notOk((after.organism_ids as number[]).includes(willow.id), 'the link to the lost organism is gone');
});
