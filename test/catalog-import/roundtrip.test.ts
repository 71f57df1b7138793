/**
 * natprod's own dump read back (api/catalog/import/natprod-dump.ts): COCONUT's October file
 * imported, dumped (api/catalog/dumps/dump.ts), and the dump's `molecules-full.csv` and
 * `molecules-2d.sdf` each imported into an empty catalog give the same catalog: identifiers,
 * structures, links (organisms with their NCBI ids, citations, collections), classes and properties.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { writeDump } from '../../api/catalog/dumps/dump.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import { PROPERTY_COLUMNS } from '../../api/catalog/import/coconut.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';

const rdkit = await loadRDKit();
const derive = (input: { structure: string }) => deriveMolecule(rdkit, input);
const molblocks = async (smiles: string[]) => smiles.map((s) => {
  const m = rdkit.get_mol(s);
  const b = m ? m.get_molblock() : null;
  m?.delete();
  return b;
});

/** The catalog as identifier → what must survive the round trip. */
async function snapshot(store: CatalogStore) {
  const names = async (coll: 'organisms' | 'citations' | 'collections', ids: unknown, f: string) =>
    (await store.findByIds(coll, (ids as number[] | undefined) ?? [])).map((d) => String(d[f] ?? '')).sort();
  const out: Record<string, unknown> = {};
  for (const m of await store.find('molecules', {})) {
    const p = (m.properties ?? {}) as Record<string, unknown>;
    const orgs = await store.findByIds('organisms', (m.organism_ids as number[] | undefined) ?? []);
    out[m.identifier as string] = {
      key: m.standard_inchi_key, smiles: m.canonical_smiles, name: m.name ?? null,
      organisms: orgs.map((o) => `${o.name}:${o.ncbi_id ?? ''}`).sort(),
      citations: await names('citations', m.citation_ids, 'doi'),
      collections: await names('collections', m.collection_ids, 'title'),
      properties: Object.fromEntries(PROPERTY_COLUMNS.map((c) => [c, p[c] ?? null])),
    };
  }
  return out;
}

t.test('natprod\'s dump re-imported into an empty catalog gives the same catalog', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-roundtrip-'));
  const open = (name: string) => openStore({ dataDir: join(dir, name) });
  const a = await open('a');
  const b = await open('b');
  const c = await open('c');
  t.teardown(async () => {
    for (const s of [a, b, c]) await s.close();
    await rm(dir, { recursive: true, force: true });
  });
  const src = await importFile(a, fileURLToPath(new URL('../fixtures/coconut/coconut_csv-10-2026.csv', import.meta.url)), { derive });
  t.equal(src.rejected_count, 0);
  const manifest = await writeDump({ store: a, molblocks, dir: join(dir, 'dumps'), date: '2026-11-29', version: 'test', with3d: false });
  const want = await snapshot(a);
  t.equal(Object.keys(want).length, src.created.molecules);

  const full = await importFile(b, join(dir, 'dumps', manifest.date, 'molecules-full.csv'), { derive });
  t.same(full.rejected, []);
  t.same(full.warnings, [], 'the dump\'s properties agree with the derivation');
  t.same(await snapshot(b), want, 'molecules-full.csv: the same identifiers, structures, links, classes and properties');

  const sdf = await importFile(c, join(dir, 'dumps', manifest.date, 'molecules-2d.sdf.gz'), { derive });
  t.same(sdf.rejected, []);
  const got = await snapshot(c);
  const linksOf = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).map(([k, v]) => {
    const { key, organisms, citations, collections } = v as Record<string, unknown>;
    return [k, { key, organisms, citations, collections }];
  }));
  t.same(linksOf(got), linksOf(want), 'molecules-2d.sdf: the same identifiers, structures and links (it has no property items but formula and weight)');
});
