/**
 * Provenance columns and 3D SDF of catalog exports (`POST /api/molecules/export`), on the LOTUS
 * demo set imported for real. The reference is the raw data files, read here independently of
 * natprod's importer: for every exported molecule, the organism names and DOIs the TSV rows of
 * its InChIKey give (lotus_sample_1000 and lotus_manually_validated_413), and its collections
 * (`LOTUS` for the sample rows, the source database's title from lotus_source_databases.csv for
 * the validated rows). SDF records are parsed back (SD tags, atom counts against RDKit); `sdf3d`
 * records have 3D coordinates (non-zero z) that RDKit reads back to the molecule's structure.
 * A page's links are read with one store `find` per linked collection.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { loadProvenance } from '../../api/catalog/export/provenance.ts';
import { PROVENANCE_FIELDS } from '../../api/catalog/export/format.ts';
import { FULL_COLUMNS } from '../../api/catalog/import/coconut.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { build } from '../helpers/app.ts';
import { importDemoOnce } from '../helpers/demo.ts';
import { csvRecords, molblockAtoms, parseSdf, tokenFor } from '../search/export-helpers.ts';

// The demo import derives 1,242 structures and the 3D step embeds ten: more than tap's default
// per-file limit on a busy 2-core machine. (A limit of the harness, not a timing assertion.)
t.setTimeout(1_200_000);
const rdkit = await loadRDKit();
/** Canonical SMILES without stereo marks (tetrahedral `@`, double-bond `/` and `\\`). */
const flatSmiles = (smiles: string): string => {
  const m = rdkit.get_mol(smiles.replace(/@+/g, '').replace(/[/\\]/g, ''));
  try {
    return m?.get_smiles() ?? '';
  } finally {
    m?.delete();
  }
};
const DATA = join(import.meta.dirname, '../../api/catalog/data');

/** A TSV file as records (LOTUS files: no quoting; `NA` or '' = missing). */
function tsv(file: string): Record<string, string>[] {
  const [head, ...lines] = gunzipSync(readFileSync(join(DATA, file))).toString('utf8').split('\n').filter((l) => l.trim());
  const cols = head.split('\t');
  return lines.map((l) => {
    const v = l.split('\t');
    return Object.fromEntries(cols.map((c, i) => [c, v[i] === 'NA' ? '' : (v[i] ?? '').trim()]));
  });
}

/** identifier → title of lotus_source_databases.csv (first two columns; a title may be quoted). */
function sourceTitles(): Map<string, string> {
  const lines = gunzipSync(readFileSync(join(DATA, 'lotus_source_databases.csv.gz'))).toString('utf8').split('\n').slice(1);
  const out = new Map<string, string>();
  for (const l of lines) {
    const m = /^([^,]*),("(?:[^"]|"")*"|[^,]*)/.exec(l);
    if (m && m[1]) out.set(m[1], m[2].startsWith('"') ? m[2].slice(1, -1).replace(/""/g, '"') : m[2]);
  }
  return out;
}

interface Expected {
  organisms: Set<string>;
  dois: Set<string>;
  collections: Set<string>;
}

function reference(): { byKey: Map<string, Expected>; ncbiByName: Map<string, Set<string>> } {
  const byKey = new Map<string, Expected>();
  const ncbiByName = new Map<string, Set<string>>();
  const at = (k: string) => {
    let e = byKey.get(k);
    if (!e) byKey.set(k, (e = { organisms: new Set(), dois: new Set(), collections: new Set() }));
    return e;
  };
  for (const r of tsv('lotus_sample_1000.tsv.gz')) {
    const e = at(r.structure_inchikey);
    if (r.organism_name) e.organisms.add(r.organism_name);
    if (r.reference_doi) e.dois.add(r.reference_doi.toLowerCase());
    e.collections.add('LOTUS');
    if (r.organism_name && r.organism_taxonomy_ncbiid) {
      if (!ncbiByName.has(r.organism_name)) ncbiByName.set(r.organism_name, new Set());
      ncbiByName.get(r.organism_name)!.add(r.organism_taxonomy_ncbiid);
    }
  }
  const titles = sourceTitles();
  for (const r of tsv('lotus_manually_validated_413.tsv.gz')) {
    const e = at(r.structureCleanedInchikey3D);
    if (r.organismCleaned) e.organisms.add(r.organismCleaned);
    if (r.referenceCleanedDoi) e.dois.add(r.referenceCleanedDoi.toLowerCase());
    if (r.database_name) e.collections.add(titles.get(r.database_name) ?? r.database_name);
    // With NCBI as the taxonomy, the organism's own id is the lineage id at the place where the
    // lineage names the organism itself (a genus-level organism: its genus id).
    const ids = r.organismCleaned_dbTaxoTaxonIds ? r.organismCleaned_dbTaxoTaxonIds.split('|') : [];
    const names = r.organismCleaned_dbTaxoTaxonomy ? r.organismCleaned_dbTaxoTaxonomy.split('|') : [];
    const place = names.lastIndexOf(r.organismCleaned);
    if (r.organismCleaned && r.organismCleaned_dbTaxo === 'NCBI' && ids.length) {
      if (!ncbiByName.has(r.organismCleaned)) ncbiByName.set(r.organismCleaned, new Set());
      ncbiByName.get(r.organismCleaned)!.add(ids[place >= 0 && place < ids.length ? place : ids.length - 1]);
    }
  }
  return { byKey, ncbiByName };
}

const split = (cell: string) => (cell ? cell.split('|') : []);
const sorted = (s: Iterable<string>) => [...s].sort();

t.test('provenance columns and 3D SDF on the LOTUS demo set', async (t) => {
  const ctx = await build(t, 'inline', { WORKERS: '2', JOB_TIMEOUT_MS: '300000' });
  if (!ctx) throw new Error('the inline app always builds');
  const { app, services } = ctx;
  await importDemoOnce(services);
  const auth = await tokenFor(services, 'reader@example.org', 'reader');
  const exp = (payload: object) => app.inject({ method: 'POST', url: '/api/molecules/export', headers: auth, payload });
  const { byKey, ncbiByName } = reference();

  await t.test('CSV: organisms, NCBI ids, DOIs and collections equal the raw rows of each InChIKey', async (t) => {
    const res = await exp({ format: 'csv', fields: ['id', 'standard_inchi_key', ...PROVENANCE_FIELDS] });
    t.equal(res.statusCode, 200);
    const rows = csvRecords(res.body);
    t.equal(rows.length, 1242, 'every demo molecule');
    let compared = 0;
    const bad: string[] = [];
    for (const r of rows) {
      const e = byKey.get(r.standard_inchi_key);
      if (!e) continue;
      compared++;
      const got = { organisms: sorted(split(r.organisms)), dois: sorted(split(r.citation_dois).map((d) => d.toLowerCase())), collections: sorted(split(r.collections)) };
      const want = { organisms: sorted(e.organisms), dois: sorted(e.dois), collections: sorted(e.collections) };
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${r.standard_inchi_key}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      // One NCBI place per organism when any id is known (positional), none otherwise.
      const ncbi = split(r.organism_ncbi_ids);
      if (ncbi.length) t.equal(ncbi.length, split(r.organisms).length, `${r.id}: one NCBI place per organism`);
    }
    t.same(bad.slice(0, 5), [], `every molecule's provenance matches the data files (${bad.length} differ)`);
    // RDKit derives the InChIKey; LOTUS's own may differ for a few structures. Nearly all must meet.
    t.ok(compared >= 1200, `${compared} of 1242 molecules compared by InChIKey`);

    // The NCBI column follows the organisms' `ncbi_id` where the organism schema has one.
    const orgs = await services.store.find('organisms', {});
    const withNcbi = orgs.filter((o) => (o as Record<string, unknown>).ncbi_id !== undefined && (o as Record<string, unknown>).ncbi_id !== null && (o as Record<string, unknown>).ncbi_id !== '');
    const pairs = rows.flatMap((r) => {
      const names = split(r.organisms);
      const ids = split(r.organism_ncbi_ids);
      return ids.map((id, i) => [names[i], id] as const).filter(([, id]) => id);
    });
    if (!withNcbi.length) t.same(pairs, [], 'no organism has an NCBI id in the store: the column is empty');
    else {
      const wrong = pairs.filter(([name, id]) => ncbiByName.get(name) && !ncbiByName.get(name)!.has(id));
      t.ok(pairs.length > 0, `${pairs.length} organism places carry an NCBI id`);
      t.same(wrong.slice(0, 5), [], 'each NCBI id is the one the LOTUS rows give for that organism');
    }
  });

  // A small, fixed subset for the SDF checks: 3D embedding of a large natural product takes
  // seconds, so the ten smallest molecules (by heavy atoms, then id).
  const all = await services.store.find('molecules', {}, { fields: ['id', 'properties'] });
  const heavy = (d: (typeof all)[number]) => Number((d.properties as Record<string, unknown> | undefined)?.heavy_atom_count ?? 1e9);
  const ids = all
    .filter((d) => heavy(d) >= 4)
    .sort((a, b) => heavy(a) - heavy(b) || a.id - b.id)
    .slice(0, 10)
    .map((d) => d.id);
  const search = { filters: [{ field: 'id', operator: 'in', value: ids }] };

  await t.test('coconut_csv over HTTP: COCONUT\'s header, organisms, DOIs and collections as the raw rows give them', async (t) => {
    const res = await exp({ format: 'coconut_csv', search });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/csv/);
    t.match(res.headers['content-disposition'], /-coconut_csv\.csv/);
    t.equal(res.body.split('\r\n')[0], FULL_COLUMNS.join(','), 'COCONUT\'s full header');
    const rows = csvRecords(res.body);
    t.equal(rows.length, ids.length);
    for (const r of rows) {
      const e = byKey.get(r.standard_inchi_key);
      if (!e) continue;
      t.same(split(r.organisms), sorted(e.organisms), `${r.identifier}: organisms, sorted as COCONUT writes them`);
      t.same(split(r.dois).map((d) => d.toLowerCase()), sorted(e.dois), `${r.identifier}: DOIs`);
      t.same(split(r.collections), sorted(e.collections), `${r.identifier}: collections`);
      t.match(r.molecular_weight, /^\d+\.\d+$/, `${r.identifier}: a float as Python writes it`);
    }
  });

  await t.test('SDF 2D: SD tags with the provenance, atom counts as RDKit counts them', async (t) => {
    const res = await exp({ format: 'sdf', search, fields: ['identifier', 'canonical_smiles', 'standard_inchi_key', ...PROVENANCE_FIELDS] });
    t.equal(res.statusCode, 200);
    const csv = csvRecords((await exp({ format: 'csv', search, fields: ['identifier', ...PROVENANCE_FIELDS] })).body);
    const recs = parseSdf(res.body);
    t.equal(recs.length, ids.length);
    for (const [i, r] of recs.entries()) {
      t.same(Object.keys(r.data), ['identifier', 'canonical_smiles', 'standard_inchi_key', ...PROVENANCE_FIELDS], `${r.title}: SD tags in order`);
      const mol = rdkit.get_mol(r.data.canonical_smiles)!;
      try {
        t.equal(molblockAtoms(r.molblock), mol.get_num_atoms(true), `${r.title}: heavy atoms`);
      } finally {
        mol.delete();
      }
      for (const f of PROVENANCE_FIELDS) t.equal(r.data[f], csv[i][f], `${r.title}: ${f} as in the CSV`);
      const e = byKey.get(r.data.standard_inchi_key);
      if (e) t.same(sorted(split(r.data.organisms)), sorted(e.organisms), `${r.title}: organisms of the data files`);
    }
  });

  await t.test('SDF 3D: real 3D coordinates that read back to the structure; failures counted', async (t) => {
    const res = await exp({ format: 'sdf3d', search, async: true, fields: ['identifier', 'canonical_smiles', ...PROVENANCE_FIELDS] });
    t.equal(res.statusCode, 202);
    const { status_url } = res.json() as { status_url: string };
    const path = new URL(status_url).pathname;
    let job: { status: string; progress: { rows: number; total: number; skipped?: number } } | undefined;
    for (let i = 0; i < 600; i++) {
      job = (await app.inject({ method: 'GET', url: path, headers: auth })).json();
      if (job!.status === 'succeeded' || job!.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    t.equal(job?.status, 'succeeded');
    const dl = await app.inject({ method: 'GET', url: `${path}/download`, headers: auth });
    t.equal(dl.statusCode, 200);
    t.match(dl.headers['content-disposition'], /-3d\.sdf"$/);
    const recs = parseSdf(dl.body);
    t.equal(job!.progress.rows, ids.length, 'every molecule read');
    t.equal(recs.length + (job!.progress.skipped ?? -1), ids.length, `records + skipped = molecules (${job!.progress.skipped} skipped)`);
    t.ok(recs.length >= ids.length - 2, 'nearly all embedded');
    for (const r of recs) {
      const lines = r.molblock.split('\n');
      const n = molblockAtoms(r.molblock);
      const z = lines.slice(4, 4 + n).map((l) => Number.parseFloat(l.slice(20, 30)));
      t.ok(z.some((v) => Math.abs(v) > 0.01), `${r.title}: non-zero z coordinates`);
      t.same(Object.keys(r.data), ['identifier', 'canonical_smiles', ...PROVENANCE_FIELDS], `${r.title}: SD tags`);
      const back = rdkit.get_mol(r.molblock);
      const want = rdkit.get_mol(r.data.canonical_smiles);
      try {
        t.ok(back?.is_valid(), `${r.title}: RDKit reads the 3D molblock`);
        t.equal(n, want!.get_num_atoms(true), `${r.title}: heavy atoms`);
        // Connectivity: RDKit reads a stereo configuration off 3D coordinates for every centre,
        // also those the stored SMILES leaves open (an embedding picks one), so both sides are
        // compared with their stereo marks removed and re-canonicalised. (MinimalLib's get_smiles
        // ignores `isomericSmiles: false`.)
        t.equal(flatSmiles(back!.get_smiles()), flatSmiles(want!.get_smiles()), `${r.title}: same structure (connectivity)`);
      } finally {
        back?.delete();
        want?.delete();
      }
    }
  });

  await t.test('validation names the formats and fields', async (t) => {
    const bad = await exp({ format: 'sdf4d' });
    t.equal(bad.statusCode, 422);
    t.match(bad.json(), { errors: { format: [/sdf3d/] } });
    const field = await exp({ format: 'csv', fields: ['organism_gbif'] });
    t.equal(field.statusCode, 422);
    t.match(field.json(), { errors: { 'fields.0': [/organism_gbif/] } });
  });

  await t.test('links are read once per page and collection, not per molecule', async (t) => {
    const docs = await services.store.find('molecules', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }], limit: 500 });
    const calls: string[] = [];
    const counting = new Proxy(services.store, {
      get(target, prop, recv) {
        if (prop === 'find') return (coll: string, ...rest: unknown[]) => (calls.push(coll), (target.find as (...a: unknown[]) => unknown)(coll, ...rest));
        return Reflect.get(target, prop, recv) as unknown;
      },
    }) as CatalogStore;
    const prov = await loadProvenance(counting, docs, PROVENANCE_FIELDS);
    t.same(calls.sort(), ['citations', 'collections', 'organisms'], 'three reads for 500 molecules');
    t.equal(prov?.size, 500);
    const linked = docs.filter((d) => Array.isArray(d.organism_ids) && d.organism_ids.length);
    t.ok(linked.length > 400, 'most molecules have organisms');
    t.ok(linked.every((d) => prov!.get(d.id)!.organisms!.split('|').length === (d.organism_ids as number[]).length), 'one name per linked organism');
  });
});
