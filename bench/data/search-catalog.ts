/**
 * The 100,000-molecule benchmark catalog (bench/data/search-100k.smi) as a full COCONUT-style
 * catalog, for `bench/search.ts`: every molecule derived by the service's own `derive_molecule`
 * (canonical structure, InChI, InChIKey, the COCONUT properties record, search fingerprints), with
 * an identifier, a status, links to organisms, citations and collections, and class labels.
 *
 *   node --import tsx bench/data/search-catalog.ts        # builds bench/data/search-store once
 *   node --import tsx bench/data/search-catalog.ts bench/data/search-5k.smi   # → bench/data/search-store-5k
 *
 * What is real and what is drawn (seeded, so every build is the same):
 * - structures, names of the set; the LOTUS molecules (`lotus:<file>:<line>`) get their LOTUS
 *   name, organism and citation from the demo files, and their decorated analogues
 *   (`lotus:...+Me@3`) the parent's name with the decoration, and the parent's organism and
 *   citation (an analogue series from one source, as in real collections);
 * - the other molecules (NCI, WEHI screening compounds, rdkit-data sets) get, with probability
 *   0.7, one of the LOTUS organisms and, with 0.5, one of the LOTUS citations, drawn at random;
 * - collections by source: `LOTUS`, `NCI`, `WEHI`, `rdkit-data`;
 * - every derived field as `derive_molecule` gives it (canonical SMILES, properties, ClassyFire-
 *   and NPClassifier-style classes of natprod's classifier): a dump of the catalog carries
 *   natprod's own derivation, as a real catalog's does (bench/import-dump.ts loads it back);
 * - `active` true for 95 %, `annotation_level` 1-5 uniform.
 * Deriving 100,000 molecules takes about 3-4 minutes on 2 quiet threads.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEMO_FILES } from '../../api/catalog/import/demo.ts';
import { readImportFile, type ImportRow } from '../../api/catalog/import/parse.ts';
import type { CatalogStore, Doc } from '../../api/catalog/store/types.ts';
import type { DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import type { JobRunner } from '../../shared/jobs/types.ts';

const BATCH = 500;

/** Deterministic generator (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** LOTUS rows of the demo files by the set's name (`lotus:<file stem>:<line>`). */
async function lotusRows(): Promise<Map<string, ImportRow>> {
  const out = new Map<string, ImportRow>();
  for (const path of DEMO_FILES.filter((p) => p.endsWith('.tsv.gz'))) {
    const stem = basename(path).split('.')[0];
    for await (const row of readImportFile(path)) out.set(`lotus:${stem}:${row.line}`, row);
  }
  return out;
}

export interface BenchLine {
  smiles: string;
  name: string;
}

/** Fills an empty store with the benchmark catalog; `onProgress` hears molecules written. */
export async function importBenchCatalog(store: CatalogStore, runner: JobRunner, lines: BenchLine[], lanes: number, onProgress?: (n: number) => void): Promise<void> {
  const random = rng(20261201);
  const lotus = await lotusRows();

  const collections = await store.insertMany(
    'collections',
    ['LOTUS', 'NCI', 'WEHI', 'rdkit-data'].map((title) => ({ title, identifier: `bench:${title.toLowerCase()}`, description: 'benchmark source', url: null })),
  );
  const collectionOf = (name: string) => {
    const src = name.split(':')[0];
    return collections[src === 'lotus' ? 0 : src === 'nci' || src === 'nci-sdf' ? 1 : src === 'wehi' ? 2 : 3].id;
  };

  const organismSeeds = new Map<string, Record<string, unknown>>();
  const citationSeeds = new Map<string, Record<string, unknown>>();
  for (const row of lotus.values()) {
    if (row.organism) organismSeeds.set(row.organism.name, { ...row.organism });
    const key = row.citation?.doi ?? row.citation?.title;
    if (row.citation && key) citationSeeds.set(key, { ...row.citation });
  }
  const organisms = await store.insertMany('organisms', [...organismSeeds.values()]);
  const citations = await store.insertMany('citations', [...citationSeeds.values()]);
  const organismId = new Map(organisms.map((o) => [o.name as string, o.id]));
  const citationId = new Map(citations.map((c) => [(c.doi ?? c.title) as string, c.id]));

  const linksOf = (name: string): { organism_ids: number[]; citation_ids: number[]; display: string } => {
    if (name.startsWith('lotus:')) {
      const [parent, ...decoration] = name.split('+');
      const row = lotus.get(parent);
      const base = row?.molecule?.name ?? parent;
      const cite = row?.citation?.doi ?? row?.citation?.title;
      return {
        organism_ids: row?.organism ? [organismId.get(row.organism.name)!] : [],
        citation_ids: cite ? [citationId.get(cite)!] : [],
        display: decoration.length ? `${base} (+${decoration.join('+')})` : base,
      };
    }
    return {
      organism_ids: random() < 0.7 ? [organisms[Math.floor(random() * organisms.length)].id] : [],
      citation_ids: random() < 0.5 ? [citations[Math.floor(random() * citations.length)].id] : [],
      display: name,
    };
  };

  let written = 0;
  for (let i = 0; i < lines.length; i += BATCH) {
    const part = lines.slice(i, i + BATCH);
    const derived: (DerivedMolecule | null)[] = new Array(part.length).fill(null);
    let next = 0;
    const lane = async () => {
      while (next < part.length) {
        const j = next++;
        derived[j] = await runner.runTask('bench', 'derive_molecule', { structure: part[j].smiles }).catch(() => null);
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    const docs = part.map((line, j): Record<string, unknown> => {
      const id = i + j + 1;
      const d = derived[j];
      const links = linksOf(line.name);
      return {
        standard_inchi: d?.standard_inchi ?? null,
        standard_inchi_key: d?.standard_inchi_key ?? null,
        canonical_smiles: d?.canonical_smiles ?? line.smiles,
        sugar_free_smiles: d?.sugar_free_smiles ?? null,
        identifier: `CNP${String(id).padStart(7, '0')}`,
        name: links.display,
        cas: null,
        iupac_name: null,
        murcko_framework: d?.murcko_framework ?? null,
        structural_comments: null,
        name_trust_level: 0,
        annotation_level: 1 + Math.floor(random() * 5),
        variants_count: 0,
        status: 'APPROVED',
        active: random() < 0.95,
        has_variants: false,
        has_stereo: d?.has_stereo ?? false,
        is_tautomer: false,
        is_parent: false,
        is_placeholder: false,
        organism_ids: links.organism_ids,
        citation_ids: links.citation_ids,
        collection_ids: [collectionOf(line.name)],
        properties: d ? { ...d.properties, id } : null,
        fingerprints: d?.fingerprints ?? null,
      };
    });
    await store.insertMany('molecules', docs);
    written += docs.length;
    onProgress?.(written);
  }
}

/** Whether the store holds the catalog this module builds (an older bench store has no identifiers). */
export async function hasBenchCatalog(store: CatalogStore): Promise<boolean> {
  const one = (await store.find('molecules', {}, { limit: 1 })) as Doc[];
  return !!one[0]?.identifier;
}

/** The default set and its store. */
export const DEFAULT_SET = fileURLToPath(new URL('./search-100k.smi', import.meta.url));
export const DEFAULT_STORE = fileURLToPath(new URL('./search-store', import.meta.url));

/**
 * The store directory of a set: `search-store` for the default `search-100k.smi`, else
 * `search-store-<stem>` next to it (`search-5k.smi` → `bench/data/search-store-5k`), git-ignored.
 */
export function storeDirFor(set: string): string {
  if (resolve(set) === DEFAULT_SET) return DEFAULT_STORE;
  const stem = basename(set).replace(/\.smi$/, '').replace(/^search-/, '');
  return fileURLToPath(new URL(`./search-store-${stem}`, import.meta.url));
}

/** Reads a set file (`SMILES<TAB>name` a line). */
export function readBenchSet(set: string): BenchLine[] {
  return readFileSync(set, 'utf8').trim().split('\n').map((l) => l.split('\t')).map(([smiles, name]) => ({ smiles, name }));
}

/**
 * Builds the catalog of `set` in `dir` unless it holds one already (then checks it holds as many
 * molecules as the set has lines). Returns the molecule count and the build time (0 when kept).
 */
export async function ensureBenchCatalog(set: string, dir: string, threads: number, log: (line: string) => void = console.log): Promise<{ molecules: number; buildMs: number }> {
  const { EmbeddedStore } = await import('../../api/catalog/store/embedded.ts');
  const lines = readBenchSet(set);
  const store = await EmbeddedStore.open(dir);
  try {
    const have = await store.count('molecules', {});
    if (have > 0) {
      if (!(await hasBenchCatalog(store))) throw new Error(`${dir} is an older bench store (no identifiers): delete it first`);
      if (have !== lines.length) throw new Error(`${dir} holds ${have} molecules, ${set} has ${lines.length} lines: not the catalog of this set (delete it, or name another set)`);
      return { molecules: have, buildMs: 0 };
    }
    const { createInlineRunner } = await import('../../shared/jobs/inline.ts');
    const { createPool } = await import('../../shared/threads/pool.ts');
    const { loadConfig, threadConfig } = await import('../../shared/config.ts');
    const pool = createPool(threads, threadConfig(loadConfig()));
    const runner = createInlineRunner({ execute: (task, args, hooks) => pool.run(task, args, hooks), timeouts: { quickMs: 600_000, longMs: 600_000, waitMs: 600_000, resultTtlSeconds: 60 } });
    log(`building the catalog of ${lines.length} molecules of ${set} in ${dir} (derived on ${threads} threads) ...`);
    const t0 = performance.now();
    try {
      await importBenchCatalog(store, runner, lines, threads * 2, (n) => n % 5000 === 0 && log(`  ${n} molecules (${((performance.now() - t0) / 1000).toFixed(0)} s)`));
    } finally {
      await runner.close();
      await pool.destroy();
    }
    const buildMs = performance.now() - t0;
    log(`built in ${(buildMs / 1000).toFixed(0)} s`);
    return { molecules: lines.length, buildMs };
  } finally {
    await store.close();
  }
}

//   node --import tsx bench/data/search-catalog.ts [SET.smi [STORE_DIR]]
if (import.meta.url === `file://${process.argv[1]}`) {
  const set = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_SET;
  const dir = process.argv[3] ? resolve(process.argv[3]) : storeDirFor(set);
  await ensureBenchCatalog(set, dir, Number(process.env.THREADS ?? 2)).then(
    ({ molecules, buildMs }) => buildMs === 0 && console.log(`${dir} already holds the catalog of ${set} (${molecules} molecules)`),
    (e: Error) => {
      console.error(e.message);
      process.exitCode = 2;
    },
  );
}
