/**
 * Catalog benchmark on the embedded store.
 *   node --import tsx bench/catalog.ts [N=100000] [repeats=40] [--no-importer]
 *
 * 1. Derives every structure of the shipped demo set once (RDKit WASM, this process).
 * 2. Generates N molecules from those templates by varying fields (identifier, name, InChIKey,
 *    status, flags, property values, links to the demo organisms and collections) and bulk-loads
 *    them with `insertMany` (batches of 2000): the bulk import rate.
 * 3. Times typical searches through the real HTTP plugin (`app.inject`) and prints p50/p95:
 *    the default listing, indexed equality, `like` prefix, a range on a property, sort + page 100.
 * 4. Unless `--no-importer`: the row-by-row importer (upserts by InChIKey/name/DOI, links,
 *    counts, derivation in this process) on the demo files into a fresh store: its rate.
 * It prints figures; it asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import catalogPlugin from '../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../api/catalog/auth/auth.ts';
import type { DerivedMolecule } from '../shared/chem/catalog/ports.ts';
import { DEMO_FILES, importDemo } from '../api/catalog/import/demo.ts';
import { readImportFile } from '../api/catalog/import/parse.ts';
import { openStore } from '../api/catalog/store/open.ts';
import { STATUSES } from '../api/catalog/schema/resources.ts';
import { deriveMolecule } from '../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { invalidStructure } from '../shared/errors.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(args[0] ?? 100_000);
const REPEATS = Number(args[1] ?? 40);
const IMPORTER = !process.argv.includes('--no-importer');

let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
const STATUS = STATUSES;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Letters for a number, so every synthetic InChIKey is distinct and well-formed. */
const letters = (n: number, width: number) => Array.from({ length: width }, (_, k) => String.fromCharCode(65 + (Math.floor(n / 26 ** k) % 26))).join('');

interface Template { name: string; derived: DerivedMolecule }

async function demoTemplates(): Promise<{ templates: Template[]; organisms: string[] }> {
  const rdkit = await loadRDKit();
  const bySmiles = new Map<string, string>();
  const organisms = new Set<string>();
  for (const f of DEMO_FILES.filter((p) => p.includes('lotus_'))) {
    for await (const r of readImportFile(f)) {
      if (r.molecule && !bySmiles.has(r.molecule.canonical_smiles)) bySmiles.set(r.molecule.canonical_smiles, r.molecule.name ?? 'unnamed');
      if (r.organism) organisms.add(r.organism.name);
    }
  }
  const templates: Template[] = [];
  for (const [smiles, name] of bySmiles) {
    try {
      templates.push({ name, derived: deriveMolecule(rdkit, { structure: smiles }) });
    } catch {
      // a demo structure RDKit cannot read would be reported by the importer; skip it here
    }
  }
  return { templates, organisms: [...organisms] };
}

function molecule(i: number, tp: Template, orgCount: number, colCount: number) {
  const d = tp.derived;
  const jitter = 1 + (rnd() - 0.5) * 0.2;
  const mw = Math.round(d.properties.molecular_weight * jitter * 100) / 100;
  return {
    identifier: `CNP${String(i + 1).padStart(7, '0')}`,
    name: i < 1 ? tp.name : `${tp.name} ${letters(i, 3).toLowerCase()}`,
    iupac_name: null,
    canonical_smiles: d.canonical_smiles,
    standard_inchi: d.standard_inchi,
    standard_inchi_key: `${d.standard_inchi_key.slice(0, 15)}${letters(i, 8)}SA-N`,
    has_stereo: d.has_stereo,
    murcko_framework: d.murcko_framework,
    status: pick(STATUS),
    active: rnd() > 0.3,
    annotation_level: Math.floor(rnd() * 6),
    name_trust_level: 0,
    variants_count: 0,
    has_variants: false,
    is_tautomer: false,
    is_parent: false,
    is_placeholder: false,
    organism_ids: [1 + Math.floor(rnd() * orgCount)],
    collection_ids: [1 + Math.floor(rnd() * colCount)],
    citation_ids: [],
    properties: { ...d.properties, id: i + 1, molecular_weight: mw, alogp: Math.round((d.properties.alogp + (rnd() - 0.5)) * 100) / 100 },
  };
}

const t0 = performance.now();
const { templates, organisms } = await demoTemplates();
console.log(`derived ${templates.length} demo structures in ${secs(performance.now() - t0)} (templates); ${organisms.length} demo organisms`);

const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-'));
try {
  const store = await openStore({ dataDir: dir });
  await store.insertMany('organisms', organisms.map((name) => ({ name, rank: 'species', molecule_count: 0 })));
  await store.insertMany('collections', Array.from({ length: 40 }, (_, i) => ({ title: `Collection ${i + 1}`, molecule_count: 0 })));
  const t1 = performance.now();
  const BATCH = 2000;
  for (let i = 0; i < N; i += BATCH) {
    await store.insertMany('molecules', Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => molecule(i + k, templates[(i + k) % templates.length], organisms.length, 40)));
  }
  const importMs = performance.now() - t1;
  console.log(`bulk import (insertMany, batches of ${BATCH}): ${N} molecules in ${secs(importMs)} = ${Math.round(N / (importMs / 1000))} molecules/s`);

  const app = Fastify();
  await app.register(catalogPlugin, { store, derive: async ({ structure }) => { throw invalidStructure(structure); } });
  await app.ready();
  const token = await issueToken(store, (await ensureUser(store, 'bench@x.org', 'reader')).id);
  const search = async (body: object) => {
    const s = performance.now();
    const r = await app.inject({ method: 'POST', url: '/api/molecules/search', headers: { authorization: `Bearer ${token}` }, payload: { search: body } });
    if (r.statusCode !== 200) throw new Error(r.body);
    return { ms: performance.now() - s, total: r.json().total as number };
  };
  const prefixes = templates.map((tp) => tp.name.slice(0, 4)).filter((p) => /^[A-Za-z]{4}$/.test(p));
  const cases: [string, () => object][] = [
    ['default listing (id desc, page 1..20)', () => ({ page: 1 + Math.floor(rnd() * 20) })],
    ['indexed equality (identifier =)', () => ({ filters: [{ field: 'identifier', value: `CNP${String(1 + Math.floor(rnd() * N)).padStart(7, '0')}` }] })],
    ['like prefix (name like "Abcd%")', () => ({ filters: [{ field: 'name', operator: 'like', value: `${pick(prefixes)}%` }] })],
    ['range on a property (10 Da window)', () => { const lo = 150 + Math.floor(rnd() * 500); return { filters: [{ field: 'properties.molecular_weight', operator: '>=', value: lo }, { field: 'properties.molecular_weight', operator: '<', value: lo + 10 }] }; }],
    ['sort by name + page 100 (limit 50)', () => ({ sorts: [{ field: 'name', direction: 'asc' }], page: 100, limit: 50 })],
  ];
  const cold = performance.now();
  await search(cases[4][1]());
  console.log(`first sorted listing (sorts all ${N} in memory, then cached until the next write): ${(performance.now() - cold).toFixed(0)} ms`);
  for (const [label, make] of cases) {
    await search(make()); // warm-up
    const times: number[] = [];
    let hits = 0;
    for (let k = 0; k < REPEATS; k++) {
      const r = await search(make());
      times.push(r.ms);
      hits += r.total;
    }
    console.log(`${label.padEnd(40)} p50 ${pct(times, 50).toFixed(1).padStart(7)} ms   p95 ${pct(times, 95).toFixed(1).padStart(7)} ms   (mean total ${Math.round(hits / REPEATS)})`);
  }
  await app.close();
  await store.close();

  if (IMPORTER) {
    const rdkit = await loadRDKit();
    const fresh = await openStore({ dataDir: join(dir, 'importer') });
    const t2 = performance.now();
    const sums = await importDemo(fresh, { derive: (i) => deriveMolecule(rdkit, i) });
    const ms = performance.now() - t2;
    const rows = sums.reduce((n, s) => n + s.rows, 0);
    const mols = sums.reduce((n, s) => n + s.created.molecules, 0);
    console.log(`row importer on the demo files (derivation in this process): ${rows} rows, ${mols} molecules in ${secs(ms)} = ${Math.round(rows / (ms / 1000))} rows/s`);
    await fresh.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
