/**
 * Rows that carry their derivation (api/catalog/import/carried.ts): natprod's full dump loads
 * without deriving its rows again, but for the sample that checks it; fingerprints, which no file
 * carries, are computed; a file whose derivation disagrees with natprod's on a sampled row is
 * derived from that row on. The reference is the catalog the dump was written from, derived by
 * RDKit row by row.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { searchFingerprints } from '../../shared/chem/catalog/fingerprints.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { writeDump } from '../../api/catalog/dumps/dump.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import { derivationDiffers } from '../../api/catalog/import/carried.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore, Doc } from '../../api/catalog/store/types.ts';
import type { Teardown as Tap } from '../helpers/task.ts';

const rdkit = await loadRDKit();
const derive = (input: { structure: string }) => deriveMolecule(rdkit, input);
const molblocks = async (smiles: string[]) => smiles.map((s) => {
  const m = rdkit.get_mol(s);
  const b = m ? m.get_molblock() : null;
  m?.delete();
  return b;
});
const fingerprintMany = async (smiles: string[]) => smiles.map((s) => {
  const m = rdkit.get_mol(s);
  if (!m) return null;
  try {
    return searchFingerprints(m);
  } finally {
    m.delete();
  }
});

/** Every molecule as identifier → its stored fields (ids and the properties record's id left out: they are the store's). */
async function molecules(store: CatalogStore): Promise<Record<string, Doc>> {
  const out: Record<string, Doc> = {};
  for (const m of await store.find('molecules', {})) {
    const { id, organism_ids, citation_ids, collection_ids, properties, ...rest } = m as Doc & { properties?: Record<string, unknown> };
    void id; void organism_ids; void citation_ids; void collection_ids;
    const { id: pid, ...props } = properties ?? {};
    void pid;
    out[m.identifier as string] = { ...rest, properties: props } as unknown as Doc;
  }
  return out;
}

const dir = await mkdtemp(join(tmpdir(), 'natprod-carried-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const source = await openStore({ dataDir: join(dir, 'source') });
t.teardown(() => source.close());
await importFile(source, fileURLToPath(new URL('../fixtures/coconut/coconut_csv-10-2026.csv', import.meta.url)), { derive });
const manifest = await writeDump({ store: source, molblocks, dir: join(dir, 'dumps'), date: '2026-11-29', version: 'test', with3d: false });
const dump = join(dir, 'dumps', manifest.date, 'molecules-full.csv');
const want = await molecules(source);
const n = Object.keys(want).length;

/** A CSV line's cells as written (quoted ones keep their quotes; no cell of the dump spans lines). */
const cellsOf = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]).slice(0, -1);

/** Imports `file` into a new store, counting the derivations asked for. */
async function load(t: Tap, file: string, sampleEvery: number) {
  const store = await openStore({ dataDir: await mkdtemp(join(dir, 'store-')) });
  t.teardown(() => store.close());
  let derived = 0;
  const summary = await importFile(store, file, { derive: (i) => (derived++, derive(i)), fingerprintMany, sampleEvery, chunk: 4 });
  return { store, summary, derived };
}

t.test('the full dump loads as it is, checked on one row in four, with the same molecules and fingerprints', async (t) => {
  t.ok(n >= 8, `${n} molecules in the source catalog`);
  const { store, summary, derived } = await load(t, dump, 4);
  t.same(summary.rejected, []);
  t.same(summary.warnings, [], 'every sampled row agrees with natprod\'s derivation');
  t.equal(summary.carried, n, 'every row carried its derivation');
  t.equal(summary.sampled, Math.ceil(n / 4), 'the first row and one in four after it were derived again');
  t.equal(derived, summary.sampled, 'and only those');
  t.same(await molecules(store), want, 'the same stored molecules as the catalog the dump was written from, fingerprints included');
});

t.test('sampleEvery 1 derives every row', async (t) => {
  const { store, summary, derived } = await load(t, dump, 1);
  t.equal(summary.carried, undefined);
  t.equal(derived, n);
  t.same(await molecules(store), want);
});

t.test('a file whose derivation disagrees on a sampled row is derived from that row on', async (t) => {
  // One row's weight changed by 1: with one row in two sampled (rows 1, 3, 5 ...), an odd row
  // from the third on is checked.
  const lines = (await readFile(dump, 'utf8')).split('\n');
  const head = cellsOf(lines[0]);
  const col = head.indexOf('molecular_weight');
  const r = lines.findIndex((l, i) => i >= 3 && i % 2 === 1 && cellsOf(l).length === head.length);
  t.ok(col > 0 && r > 0, `row ${r} to edit`);
  const cells = cellsOf(lines[r]);
  const weight = cells[col];
  cells[col] = String(Number(weight) + 1);
  lines[r] = cells.join(',');
  const edited = join(dir, 'edited.csv');
  await writeFile(edited, lines.join('\n'));
  const { store, summary, derived } = await load(t, edited, 2);
  // The row's two warnings: the sample's, and the import's own (the file's properties differ, the derived are kept).
  t.same(summary.warnings.map((w) => w.row), [r, r]);
  t.match(summary.warnings[0].message, `differs from natprod's (molecular_weight: file ${Number(weight) + 1}, derived `);
  t.match(summary.warnings[0].message, 'this row and the rows read from here on are derived again');
  t.match(summary.warnings[1].message, 'the file\'s properties differ from natprod\'s derivation, the derived values are kept: molecular_weight');
  t.equal(summary.carried, r, `rows 1-${r} were taken up as carried; the rest were derived`);
  t.equal(derived, Math.ceil((r - 1) / 2) + 1 + (n - r), 'the sampled rows before it, it, and every row after it were derived');
  t.same(await molecules(store), want, 'the edited weight did not reach the catalog');
});

t.test('derivationDiffers names the fields that differ', async (t) => {
  const a = await derive({ structure: 'OC(=O)c1ccccc1O' });
  t.same(derivationDiffers(a, a), []);
  const b = { ...a, standard_inchi_key: 'X', properties: { ...a.properties, alogp: a.properties.alogp + 1e-9, np_likeness: a.properties.np_likeness + 0.1 } };
  const differ = derivationDiffers(b, a);
  t.equal(differ.length, 2, 'a number within the import\'s tolerance agrees');
  t.match(differ[0], `standard_inchi_key: file "X", derived "${a.standard_inchi_key}"`);
  t.match(differ[1], /^np_likeness: file /);
});
