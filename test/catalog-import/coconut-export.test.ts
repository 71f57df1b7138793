/**
 * Exports in COCONUT's download layouts (api/catalog/export/coconut.ts): COCONUT's October full
 * CSV imported, exported as `coconut_csv`, gives COCONUT's rows back (compared with the fixture
 * written in COCONUT's layout, test/fixtures/scripts/coconut_downloads.ts), and the exported
 * file, read by the same importer into an empty catalog, gives the same catalog. The lite layout
 * likewise, with what it carries.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { pyFloat, pyList, pyStr } from '../../api/catalog/export/coconut.ts';
import { exportText, planExport, validateExportRequest } from '../../api/catalog/export/export.ts';
import { delimitedRecords } from '../../api/catalog/import/delimited.ts';
import { importFile } from '../../api/catalog/import/run.ts';
import { CLASS_COLUMNS, PROPERTY_COLUMNS } from '../../api/catalog/import/coconut.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';

const rdkit = await loadRDKit();
const derive = (input: { structure: string }) => deriveMolecule(rdkit, input);
const noMolblocks = async (smiles: string[]) => smiles.map(() => null);
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/coconut/${name}`, import.meta.url));

const header: string[] = [];
/** The rows of a CSV by identifier (and the header kept in `header`). */
async function rows(csv: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let first = true;
  for await (const r of delimitedRecords((async function* () { yield csv; })(), ',')) {
    if (first) header.splice(0, header.length, ...r.fields);
    else if (r.fields.length > 1) out.set(r.fields[0], r.fields);
    first = false;
  }
  return out;
}

async function exported(store: CatalogStore, format: string): Promise<string> {
  const plan = await planExport(validateExportRequest({ format }), { store });
  let out = '';
  for await (const piece of exportText(plan, noMolblocks)) out += piece;
  return out;
}

/** The catalog as identifier → what a COCONUT file carries. */
async function snapshot(store: CatalogStore, links = true) {
  const names = async (coll: 'organisms' | 'citations' | 'collections', ids: unknown, f: string) =>
    (await store.findByIds(coll, (ids as number[] | undefined) ?? [])).map((d) => String(d[f] ?? '')).sort();
  const out: Record<string, unknown> = {};
  for (const m of await store.find('molecules', {})) {
    const p = (m.properties ?? {}) as Record<string, unknown>;
    out[m.identifier as string] = {
      key: m.standard_inchi_key, smiles: m.canonical_smiles, name: m.name ?? null, iupac: m.iupac_name ?? null,
      synonyms: m.synonyms ?? [], cas: m.cas ?? [],
      ...(links ? {
        organisms: await names('organisms', m.organism_ids, 'name'),
        citations: await names('citations', m.citation_ids, 'doi'),
        collections: await names('collections', m.collection_ids, 'title'),
      } : {}),
      properties: Object.fromEntries(PROPERTY_COLUMNS.map((c) => [c, p[c] ?? null])),
    };
  }
  return out;
}

t.test('Python\'s way of writing values', async (t) => {
  t.equal(pyFloat(190), '190.0');
  t.equal(pyFloat(190.25), '190.25');
  t.equal(pyFloat(0.00001), '1e-05', 'Python switches to exponents below 1e-4');
  t.equal(pyFloat(1e16), '1e+16');
  t.equal(pyFloat(-0.5), '-0.5');
  t.equal(pyStr('Alkaloids'), "'Alkaloids'");
  t.equal(pyStr("it's"), '"it\'s"', 'a single quote inside: double quotes, as Python');
  t.equal(pyStr('a\'b"c'), "'a\\'b\"c'", 'both quotes: single quotes, the inner one escaped');
  t.equal(pyList(['A', 'B']), "['A', 'B']");
});

t.test('coconut_csv: COCONUT\'s rows back, and read back into the same catalog', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-coconut-export-'));
  const a = await openStore({ dataDir: join(dir, 'a') });
  const b = await openStore({ dataDir: join(dir, 'b') });
  const c = await openStore({ dataDir: join(dir, 'c') });
  t.teardown(async () => {
    for (const s of [a, b, c]) await s.close();
    await rm(dir, { recursive: true, force: true });
  });
  const src = await importFile(a, fixture('coconut_csv-10-2026.csv'), { derive });
  t.equal(src.rejected_count, 0);

  const file = await exported(a, 'coconut_csv');
  const original = await readFile(fixture('coconut_csv-10-2026.csv'), 'utf8');
  t.equal(file.split('\r\n')[0], original.split('\r\n')[0], 'the header is COCONUT\'s');
  const want = await rows(original);
  const got = await rows(file);
  t.same([...got.keys()].sort(), [...want.keys()].sort(), 'the same identifiers');
  // A cell COCONUT left empty may hold what natprod derived on import (a class label the file lacks).
  const filled: string[] = [];
  const diff: string[] = [];
  for (const [id, w] of want) {
    const g = got.get(id) ?? [];
    w.forEach((cell, i) => {
      if (g[i] === cell) return;
      if (cell === '') filled.push(header[i]);
      else diff.push(`${id} ${header[i]}: ${JSON.stringify(g[i])}, COCONUT ${JSON.stringify(cell)}`);
    });
  }
  t.same(diff, [], 'every cell COCONUT wrote, written the same');
  t.ok(filled.length, 'some class cells the file left empty were filled');
  t.same([...new Set(filled)].filter((c) => !CLASS_COLUMNS.has(c)), [], 'only class cells the file left empty were filled, from natprod\'s derivation');

  await writeFile(join(dir, 'coconut_csv-export.csv'), file);
  const back = await importFile(b, join(dir, 'coconut_csv-export.csv'), { derive });
  t.same(back.rejected, []);
  t.same(back.warnings, [], 'the exported properties agree with the derivation');
  t.same(await snapshot(b), await snapshot(a), 'the same identifiers, structures, names, synonyms, CAS numbers, links, classes and properties');

  const lite = await exported(a, 'coconut_csv_lite');
  t.ok(lite.startsWith('id,identifier,canonical_smiles,'), 'the lite header');
  await writeFile(join(dir, 'coconut_csv_lite-export.csv'), lite);
  const liteBack = await importFile(c, join(dir, 'coconut_csv_lite-export.csv'), { derive });
  t.same(liteBack.rejected, []);
  t.same(await snapshot(c, false), Object.fromEntries(Object.entries(await snapshot(a, false)).map(([k, v]) => [k, { ...(v as object), synonyms: [], cas: [] }])),
    'coconut_csv_lite: the same identifiers, structures, names, classes and properties (it has no links, synonyms or CAS)');
});

t.test('the COCONUT layouts take no fields', async (t) => {
  const errors = (body: unknown) => {
    try {
      validateExportRequest(body);
      return undefined;
    } catch (e) {
      return JSON.stringify((e as { body?: unknown; errors?: unknown }).body ?? (e as { errors?: unknown }).errors ?? String(e));
    }
  };
  t.match(errors({ format: 'coconut_csv', fields: ['name'] }), /prohibited when format is coconut_csv/);
  t.match(errors({ format: 'coconut' }), /coconut_csv or coconut_csv_lite/);
});
