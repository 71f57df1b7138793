/**
 * Taxon queries at scale: the first page of `POST /api/search {"type": "tags", "tagType": "taxon"}`
 * (through `coconutSearch()`, the route's code, without HTTP) over an embedded catalog of 100,000
 * molecules, timed per rank of the queried taxon; p50/p95/p99 per kind and over all. Asserts nothing.
 *
 *   node --import tsx bench/taxon.ts
 *   MOLECULES=100000 ORGANISMS=20000 QUERIES=300 node --import tsx bench/taxon.ts
 *   PATHS=filter node --import tsx bench/taxon.ts
 *
 * PATHS (default `index,filter`): which ways of answering are timed, one after the other over the
 * same catalog and the same queries: `index`, the store's taxon index (`linkedPage`, what the
 * service uses with the embedded store); `filter`, the same store with `linkedPage` hidden, so
 * the query is counted and paged through the `organism_ids` filter (the way before the index,
 * and MongoDB's way). Each path's first query builds what it needs (reported apart).
 *
 * The catalog is built afresh in a temporary directory (about a minute) and removed at the end.
 * What is real and what is drawn (seeded, so every build is the same):
 * - organisms: every organism of the LOTUS demo files with its real lineage and ids (read by the
 *   importer's own readers), plus synthetic species (`<genus> sp. <n>`) that copy the lineage of
 *   a LOTUS organism drawn at random, up to ORGANISMS in all;
 * - molecules: no structures (a taxon query never reads one): a name, an identifier, `active`
 *   for 95 %, `annotation_level` 0-5 uniform, APPROVED; 70 % are linked to 1-3 organisms drawn
 *   at random (SYNTHETIC assignment, so a family's share of molecules follows its share of
 *   organisms);
 * - queries: taxa drawn from the organisms (so common families are queried more often), at the
 *   ranks kingdom, order, family, genus and species, in random case.
 *
 * The first query after a write builds the in-memory indexes (the taxon index, or the store's
 * substring index over the organisms' name and lineage): reported apart, and left out of the
 * percentiles; so are five kingdom queries each after a write to one molecule (the line
 * "after a write").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { coconutSearch } from '../api/catalog/search/coconut/answer.ts';
import { DEMO_FILES } from '../api/catalog/import/demo.ts';
import { readImportFile } from '../api/catalog/import/parse.ts';
import { knownTaxonomy } from '../api/catalog/import/types.ts';
import { recordDefaults } from '../api/catalog/schema/resources.ts';
import { EmbeddedStore } from '../api/catalog/store/embedded.ts';
import type { CatalogStore } from '../api/catalog/store/types.ts';
import type { StructureSearch } from '../api/catalog/search/structure/structure.ts';
import { rng } from './data/search-catalog.ts';

const MOLECULES = Number(process.env.MOLECULES ?? 100_000);
const ORGANISMS = Number(process.env.ORGANISMS ?? 20_000);
const QUERIES = Number(process.env.QUERIES ?? 300);
const PATHS = (process.env.PATHS ?? 'index,filter').split(',').map((p) => p.trim()).filter(Boolean);
const BATCH = 5_000;
const random = rng(7);
const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];

/** The LOTUS organisms with their lineage and ids, by name (first row's values, as the import keeps). */
async function lotusOrganisms(): Promise<Record<string, unknown>[]> {
  const byName = new Map<string, Record<string, unknown>>();
  for (const path of DEMO_FILES) {
    for await (const row of readImportFile(path)) {
      const o = row.organism;
      if (!o || byName.has(o.name)) continue;
      byName.set(o.name, { name: o.name, iri: o.iri, rank: o.rank, ...knownTaxonomy(o.taxonomy) });
    }
  }
  return [...byName.values()];
}

async function build(store: CatalogStore): Promise<Record<string, unknown>[]> {
  const real = await lotusOrganisms();
  const seeds = [...real];
  for (let n = 1; seeds.length < ORGANISMS; n++) {
    const like = pick(real);
    const genus = (like.genus as string | undefined) ?? String(like.name).split(' ')[0];
    seeds.push({ ...like, name: `${genus} sp. ${n}`, iri: null, rank: 'species', species: `${genus} sp. ${n}`, variety: null, ncbi_id: null, gbif_id: null, ott_id: null, wikidata_id: null });
  }
  const organisms = await store.insertMany('organisms', seeds.map((s) => ({ ...recordDefaults('organisms'), ...s })) as never);
  const ids = organisms.map((o) => o.id);
  const molDefaults = recordDefaults('molecules');
  for (let start = 0; start < MOLECULES; start += BATCH) {
    const docs = [];
    for (let i = start; i < Math.min(MOLECULES, start + BATCH); i++) {
      const k = random() < 0.7 ? 1 + Math.floor(random() * 3) : 0;
      docs.push({
        ...molDefaults,
        name: `molecule ${i + 1}`,
        identifier: `CNP${String(i + 1).padStart(7, '0')}`,
        canonical_smiles: 'C',
        status: 'APPROVED',
        active: random() < 0.95,
        annotation_level: Math.floor(random() * 6),
        organism_ids: [...new Set(Array.from({ length: k }, () => pick(ids)))],
      });
    }
    await store.insertMany('molecules', docs as never);
  }
  return seeds;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const line = (label: string, xs: number[], extra = '') =>
  console.log(`  ${label.padEnd(28)} n=${String(xs.length).padStart(4)}  p50 ${pct(xs, 50).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms${extra ? `  ${extra}` : ''}`);

const dir = await mkdtemp(join(tmpdir(), 'natprod-bench-taxon-'));
const store = await EmbeddedStore.open(dir);
try {
  const t0 = performance.now();
  const organisms = await build(store);
  console.log(`catalog: ${MOLECULES} molecules, ${organisms.length} organisms (synthetic assignment) built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const cased = (s: string) => (random() < 0.5 ? s : random() < 0.5 ? s.toLowerCase() : s.toUpperCase());
  const ranks = ['kingdom', 'order', 'family', 'genus', 'species'];
  const queries: [string, string][] = [];
  for (let i = 0; i < QUERIES; i++) {
    const rank = ranks[i % ranks.length];
    const v = pick(organisms.filter((o) => typeof o[rank] === 'string'))[rank] as string;
    queries.push([rank, cased(v)]);
  }
  for (const path of PATHS) {
    if (path !== 'index' && path !== 'filter') throw new Error(`PATHS: index or filter, not ${path}`);
    // `filter`: the store without its taxon index (as MongoDB, and as before the index).
    const used: CatalogStore = path === 'index' ? store : new Proxy(store, { get: (t, k) => (k === 'linkedPage' ? undefined : typeof Reflect.get(t, k) === 'function' ? Reflect.get(t, k).bind(t) : Reflect.get(t, k)) });
    // Taxon queries never reach the structure search.
    const search = (query: string) => coconutSearch({ store: used, structure: undefined as unknown as StructureSearch }, { type: 'tags', tagType: 'taxon', query });
    const f0 = performance.now();
    await search(queries[0][1]);
    const first = performance.now() - f0;
    console.log(`\n${path}: tags/taxon, first page (limit 24), ${QUERIES} queries; first ${first.toFixed(0)} ms (builds the ${path === 'index' ? 'taxon index' : 'lineage index'})`);
    const times: Record<string, number[]> = {};
    const hits: Record<string, number> = {};
    for (const [rank, q] of queries) {
      const s = performance.now();
      const { data } = await search(q);
      (times[rank] ??= []).push(performance.now() - s);
      hits[rank] = (hits[rank] ?? 0) + (Array.isArray(data) ? 0 : data.total);
    }
    for (const r of ranks) line(r, times[r], `mean hits ${(hits[r] / times[r].length).toFixed(0)}`);
    line('all', Object.values(times).flat());
    // After a write to one molecule, the next query rebuilds what was built from the molecules.
    const afterWrite: number[] = [];
    const kingdoms = queries.filter(([r]) => r === 'kingdom');
    for (let i = 0; i < 5; i++) {
      await store.update('molecules', 1 + i, { annotation_level: i % 6 });
      const s = performance.now();
      await search(kingdoms[i % kingdoms.length][1]);
      afterWrite.push(performance.now() - s);
    }
    line('kingdom, after a write', afterWrite);
  }
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
