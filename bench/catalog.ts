/**
 * Catalog benchmark on the embedded store: imports N synthetic molecules (default 100 000; fields
 * varied from a few natural-product templates with a seeded PRNG), then times typical searches
 * through the real HTTP plugin (app.inject) and prints p50/p95.
 *   node --import tsx bench/catalog.ts [N] [repeats]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import catalogPlugin from '../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../shared/catalog/auth.ts';
import { openStore } from '../shared/catalog/store/open.ts';
import { invalidStructure } from '../shared/errors.ts';

const N = Number(process.argv[2] ?? 100_000);
const REPEATS = Number(process.argv[3] ?? 40);

let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];

const TEMPLATES = [
  ['caffeine', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 194.19],
  ['quercetin', 'C1=CC(=C(C=C1C2=C(C(=O)C3=C(C=C(C=C3O2)O)O)O)O)O', 302.24],
  ['menthol', 'CC(C)C1CCC(C)CC1O', 156.27],
  ['artemisinin', 'CC1CCC2C(C)C(=O)OC3OC4(C)CCC1C32OO4', 282.33],
  ['berberine', 'COC1=C(C2=C[N+]3=C(C=C2C=C1)C4=CC5=C(C=C4CC3)OCO5)OC', 336.36],
] as const;
const SYL = ['al', 'be', 'cor', 'di', 'en', 'fu', 'gly', 'hy', 'is', 'ju', 'ka', 'lo', 'my', 'ne', 'ox', 'py', 'qu', 'ro', 'sa', 'te'];
const STATUS = ['DRAFT', 'INREVIEW', 'APPROVED', 'REVOKED'];

function molecule(i: number) {
  const [base, smiles, mw] = pick(TEMPLATES as unknown as [string, string, number][]);
  const name = `${pick(SYL)}${pick(SYL)}${pick(SYL)}${base}`.replace(/^./, (c) => c.toUpperCase());
  const weight = Math.round((mw + (rnd() - 0.5) * 400) * 100) / 100;
  return {
    identifier: `CNP${String(i + 1).padStart(7, '0')}`,
    name,
    canonical_smiles: `${smiles}.C${i}`,
    standard_inchi_key: `BENCH${String(i).padStart(9, '0')}-UHFFFAOYSA-N`,
    standard_inchi: `InChI=1S/bench/${i}`,
    status: pick(STATUS),
    active: rnd() > 0.3,
    annotation_level: Math.floor(rnd() * 6),
    has_stereo: rnd() > 0.5,
    is_parent: false,
    is_placeholder: false,
    organism_ids: [1 + Math.floor(rnd() * 1000)],
    collection_ids: [1 + Math.floor(rnd() * 10)],
    citation_ids: [],
    properties: { id: i + 1, molecular_weight: weight, heavy_atom_count: Math.round(weight / 14), molecular_formula: `C${Math.round(weight / 14)}`, alogp: Math.round((rnd() * 10 - 3) * 100) / 100 },
  };
}

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-'));
try {
  const store = await openStore({ dataDir: dir });
  await store.insertMany('organisms', Array.from({ length: 1000 }, (_, i) => ({ name: `Organism ${i}`, rank: 'species', molecule_count: 0 })));
  const t0 = performance.now();
  const BATCH = 2000;
  for (let i = 0; i < N; i += BATCH) await store.insertMany('molecules', Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => molecule(i + k)));
  const importMs = performance.now() - t0;
  console.log(`import: ${N} molecules in ${(importMs / 1000).toFixed(1)} s = ${Math.round(N / (importMs / 1000))} molecules/s`);

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
  const cases: [string, () => object][] = [
    ['indexed equality (identifier =)', () => ({ filters: [{ field: 'identifier', value: `CNP${String(1 + Math.floor(rnd() * N)).padStart(7, '0')}` }] })],
    ['like prefix (name like "Xyz%")', () => ({ filters: [{ field: 'name', operator: 'like', value: `${pick(SYL)}${pick(SYL)}`.replace(/^./, (c) => c.toUpperCase()) + '%' }] })],
    ['range on a property (10 Da window)', () => { const lo = 100 + Math.floor(rnd() * 300); return { filters: [{ field: 'properties.molecular_weight', operator: '>=', value: lo }, { field: 'properties.molecular_weight', operator: '<', value: lo + 10 }] }; }],
    ['sort by name + page 100 (limit 50)', () => ({ sorts: [{ field: 'name', direction: 'asc' }], page: 100, limit: 50 })],
  ];
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
} finally {
  await rm(dir, { recursive: true, force: true });
}
