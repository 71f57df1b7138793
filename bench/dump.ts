/**
 * Full-dump benchmark on the embedded store.
 *   node --import tsx bench/dump.ts [N=100000] [SAMPLE_3D=100] [--workers=2]
 *
 * 1. Derives the demo set's structures once (RDKit WASM, this process) and bulk-loads N
 *    molecules made from them (distinct identifiers and InChIKeys; each linked to an organism
 *    with an NCBI id, a citation and a collection), as bench/catalog.ts does.
 * 2. Times `writeDump` without the 3D SDF (SDF 2D, CSV lite, CSV full, manifest) through an
 *    inline runner on a pool of `--workers` chemistry threads: wall time, molecules/s, sizes
 *    (each file's and its `.gz`'s).
 * 3. Times 3D embedding (`generate_3d_coordinates`, as the 3D SDF runs it) on SAMPLE_3D demo
 *    structures (every k-th, so sizes are spread as in the demo set) and extrapolates to N.
 * It prints figures; it asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../shared/config.ts';
import { createServices } from '../api/services.ts';
import type { DerivedMolecule } from '../shared/chem/catalog/ports.ts';
import { DEMO_FILES } from '../api/catalog/import/demo.ts';
import { readImportFile } from '../api/catalog/import/parse.ts';
import { openStore } from '../api/catalog/store/open.ts';
import { deriveMolecule } from '../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { runnerMolblocks, runnerMolblocks3D } from '../api/catalog/export/routes.ts';
import { writeDump } from '../api/catalog/dumps/dump.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(args[0] ?? 100_000);
const SAMPLE_3D = Number(args[1] ?? 100);
const WORKERS = Number(process.argv.find((a) => a.startsWith('--workers='))?.slice(10) ?? 2);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const letters = (n: number, width: number) => Array.from({ length: width }, (_, k) => String.fromCharCode(65 + (Math.floor(n / 26 ** k) % 26))).join('');

console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${WORKERS} chemistry threads`);
const rdkit = await loadRDKit();
const t0 = performance.now();
const bySmiles = new Map<string, string>();
const organisms = new Set<string>();
for (const f of DEMO_FILES.filter((p) => p.includes('lotus_'))) {
  for await (const r of readImportFile(f)) {
    if (r.molecule && !bySmiles.has(r.molecule.canonical_smiles)) bySmiles.set(r.molecule.canonical_smiles, r.molecule.name ?? 'unnamed');
    if (r.organism) organisms.add(r.organism.name);
  }
}
const templates: { name: string; derived: DerivedMolecule }[] = [];
for (const [smiles, name] of bySmiles) {
  try {
    templates.push({ name, derived: deriveMolecule(rdkit, { structure: smiles }) });
  } catch {
    // unreadable demo structure: the importer reports it; not a template here
  }
}
console.log(`derived ${templates.length} templates in ${secs(performance.now() - t0)}`);

const dir = await mkdtemp(join(tmpdir(), 'natprod-dump-bench-'));
try {
  const store = await openStore({ dataDir: dir });
  const orgNames = [...organisms];
  await store.insertMany('organisms', orgNames.map((name, i) => ({ name, rank: 'species', ncbi_id: String(100000 + i), molecule_count: 0 }) as never));
  await store.insertMany('collections', Array.from({ length: 40 }, (_, i) => ({ title: `Collection ${i + 1}`, molecule_count: 0 })));
  await store.insertMany('citations', Array.from({ length: 500 }, (_, i) => ({ doi: `10.1000/bench.${i}`, title: `Paper ${i}` }) as never));
  const t1 = performance.now();
  for (let i = 0; i < N; i += 2000) {
    await store.insertMany(
      'molecules',
      Array.from({ length: Math.min(2000, N - i) }, (_, k) => {
        const j = i + k;
        const d = templates[j % templates.length].derived;
        return {
          identifier: `CNP${String(j + 1).padStart(7, '0')}`,
          name: `${templates[j % templates.length].name} ${letters(j, 3).toLowerCase()}`,
          canonical_smiles: d.canonical_smiles,
          standard_inchi: d.standard_inchi,
          standard_inchi_key: `${d.standard_inchi_key.slice(0, 15)}${letters(j, 8)}SA-N`,
          has_stereo: d.has_stereo,
          murcko_framework: d.murcko_framework,
          status: 'APPROVED',
          active: true,
          annotation_level: 1,
          organism_ids: [1 + (j % orgNames.length), 1 + ((j * 7) % orgNames.length)],
          collection_ids: [1 + (j % 40)],
          citation_ids: [1 + (j % 500)],
          properties: { ...d.properties, id: j + 1 },
        } as never;
      }),
    );
  }
  console.log(`loaded ${N} molecules in ${secs(performance.now() - t1)}`);

  const config = loadConfig({ DATA_DIR: dir, WORKERS: String(WORKERS), SEED_DEMO: 'false', LOG_LEVEL: 'silent' });
  const services = await createServices(config, { store });
  try {
    const t2 = performance.now();
    const manifest = await writeDump({
      store: services.store,
      molblocks: runnerMolblocks(services.runner),
      dir: join(dir, 'dumps'),
      date: '2000-01-01',
      version: 'bench',
      with3d: false,
    });
    const ms = performance.now() - t2;
    console.log(`dump without 3D: ${manifest.molecules} molecules in ${secs(ms)} (${Math.round(manifest.molecules / (ms / 1000))} molecules/s)`);
    for (const f of manifest.files) console.log(`  ${f.name}: ${(f.size / 1e6).toFixed(1)} MB, ${f.records} records${f.gz ? `; ${f.gz.name}: ${(f.gz.size / 1e6).toFixed(1)} MB` : ''}`);

    const step = Math.max(1, Math.floor(templates.length / SAMPLE_3D));
    const sample = templates.filter((_, i) => i % step === 0).slice(0, SAMPLE_3D).map((tp) => tp.derived.canonical_smiles);
    const t3 = performance.now();
    const blocks = await runnerMolblocks3D(services.runner)(sample);
    const ms3 = performance.now() - t3;
    const failed = blocks.filter((b) => !b).length;
    const rate = sample.length / (ms3 / 1000);
    console.log(`3D: ${sample.length} demo structures in ${secs(ms3)} (${rate.toFixed(2)} molecules/s, ${failed} failed) → ${N} molecules ≈ ${secs((N / rate) * 1000)}`);
  } finally {
    await services.close(0);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
