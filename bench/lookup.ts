/**
 * Bulk look-up (api/catalog/lookup/) at scale: 100,000 whole InChIKeys against a 100,000-molecule
 * catalog, through `POST /api/molecules/lookup` (the catalog plugin on Fastify, `inject`, a JSON
 * body of 100,000 keys, the CSV answer read whole), and the matching alone (`lookup()`), for
 * whole keys, identifiers, first blocks and names. Asserts nothing but the answer's row counts.
 *
 *   node --import tsx bench/lookup.ts                      # synthetic 100,000-molecule store in a temp dir
 *   node --import tsx bench/lookup.ts --store DIR          # an embedded store: built there once if empty, kept
 *   MONGO_URL=mongodb://... node --import tsx bench/lookup.ts   # the same synthetic catalog in MongoDB
 *
 * The synthetic catalog holds what a look-up reads (no chemistry is needed to match keys):
 * 100,000 molecules with distinct random standard InChIKeys (1 in 20 sharing its first block with
 * another, as stereoisomers do), `CNP` identifiers, names, SMILES-shaped text and a properties
 * record, inserted with `insertMany` (about 10 s). Queries: 90,000 keys of the catalog and 10,000
 * absent ones, shuffled. SMILES are not timed here: they cost one InChIKey per distinct SMILES on
 * the chemistry threads (see the last line's note), then match as keys.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import catalogPlugin from '../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../api/catalog/auth/auth.ts';
import { BackgroundWork } from '../api/catalog/actions/background.ts';
import { lookup } from '../api/catalog/lookup/match.ts';
import { openStore } from '../api/catalog/store/open.ts';
import type { CatalogStore } from '../api/catalog/store/types.ts';
import { DEFAULT_FIELDS } from '../api/catalog/export/format.ts';
import { rng } from './data/search-catalog.ts';

const N = 100_000;
const random = rng(26);
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join('');

/** CPU seconds of this process since `c0` (wall time alone misleads on a busy machine). */
const cpuSeconds = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) / 1e6).toFixed(2);
};

async function synthetic(store: CatalogStore): Promise<void> {
  const t0 = performance.now();
  const BATCH = 5000;
  let block = '';
  for (let i = 0; i < N; i += BATCH) {
    const docs = [];
    for (let j = i; j < Math.min(N, i + BATCH); j++) {
      // 1 in 20 shares the previous molecule's first block (a stereoisomer).
      if (j % 20 !== 1) block = letters(14);
      docs.push({
        standard_inchi_key: `${block}-${letters(8)}SA-N`,
        standard_inchi: `InChI=1S/bench/${j}`,
        canonical_smiles: `C${'C'.repeat(j % 17)}O${j}`,
        identifier: `CNP${String(j + 1).padStart(7, '0')}`,
        name: `compound ${letters(6).toLowerCase()} ${j}`,
        status: 'APPROVED' as const,
        active: true,
        annotation_level: 1 + (j % 5),
        has_stereo: false,
        is_parent: false,
        properties: { id: j + 1, molecular_formula: `C${10 + (j % 30)}H${12 + (j % 40)}O${1 + (j % 6)}`, molecular_weight: 150 + (j % 500) + 0.25 },
        organism_ids: [],
        collection_ids: [],
        citation_ids: [],
      });
    }
    await store.insertMany('molecules', docs as never);
  }
  console.log(`synthetic catalog: ${N} molecules inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main() {
  const at = process.argv.indexOf('--store');
  const given = at > 0 ? process.argv[at + 1] : undefined;
  const dir = given ?? (await mkdtemp(join(tmpdir(), 'natprod-lookup-bench-')));
  const mongoUrl = process.env.MONGO_URL;
  const store = await openStore({ dataDir: dir, ...(mongoUrl && !given ? { mongoUrl } : {}) });
  try {
    if (!(await store.count('molecules', {}))) await synthetic(store);
    const all = await store.find('molecules', {}, { fields: ['standard_inchi_key', 'identifier', 'name'] });
    console.log(`catalog: ${all.length} molecules (${store.kind} store)`);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    const present = Array.from({ length: 90_000 }, () => pick(all).standard_inchi_key as string);
    // Absent for sure: no catalog key has a second block ending in SB.
    const absent = Array.from({ length: 10_000 }, () => `${letters(14)}-${letters(8)}SB-N`);
    const keys = [...present, ...absent].sort(() => random() - 0.5);
    const noSmiles = async () => {
      throw new Error('no SMILES in this benchmark');
    };

    // Through the route: JSON body, CSV answer.
    const app = Fastify({ bodyLimit: 64 * 1_048_576, logger: { level: 'error' } });
    const background = new BackgroundWork({ info() {}, warn() {}, error() {} });
    await app.register(catalogPlugin, {
      store,
      derive: async () => {
        throw new Error('no derivation in this benchmark');
      },
      background,
      lookup: { dir: join(dir, 'lookups'), ttlSeconds: 60, maxRows: 200_000, uploadLimit: 64 * 1_048_576, syncMax: 200_000, inchikeys: noSmiles },
    });
    await app.ready();
    const token = await issueToken(store, (await ensureUser(store, 'bench@example.org', 'reader')).id);
    for (const round of [1, 2]) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const res = await app.inject({ method: 'POST', url: '/api/molecules/lookup', headers: { authorization: `Bearer ${token}` }, payload: { queries: keys } });
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(c0);
      const lines = res.body.split('\r\n').length - 2;
      if (res.statusCode !== 200 || lines !== keys.length) throw new Error(`HTTP ${res.statusCode}: ${res.body.slice(0, 300)}`);
      const found = res.body.split('\r\n').filter((l) => l.includes(',inchikey,found,')).length;
      console.log(`POST /api/molecules/lookup, ${keys.length} InChIKeys (default fields), round ${round}: ${(ms / 1000).toFixed(2)} s (${cpu} s CPU), ${found} found, ${(res.body.length / 1_048_576).toFixed(1)} MiB CSV`);
    }
    await app.close();

    const timed = async (label: string, queries: string[]) => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const rows = await lookup(queries, { fields: DEFAULT_FIELDS, kind: 'auto' }, { store, inchikeys: noSmiles });
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(c0);
      const by = new Map<string, number>();
      for (const r of rows) by.set(r.status, (by.get(r.status) ?? 0) + 1);
      console.log(`lookup() ${queries.length} ${label}: ${(ms / 1000).toFixed(2)} s (${cpu} s CPU; ${[...by].map(([k, v]) => `${v} ${k}`).join(', ')})`);
    };
    await timed('InChIKeys', keys);
    await timed('identifiers', Array.from({ length: 100_000 }, () => pick(all).identifier as string));
    await timed('first InChIKey blocks', Array.from({ length: 10_000 }, () => (pick(all).standard_inchi_key as string).slice(0, 14)));
    await timed('names (case changed)', Array.from({ length: 2_000 }, () => (pick(all).name as string).toUpperCase()));
    console.log('SMILES: not timed here; each distinct SMILES is one InChIKey on the chemistry threads (catalog_inchikeys, 250 a task, 4 tasks in flight), then a key look-up as above.');
  } finally {
    await store.close();
    if (!given) await rm(dir, { recursive: true, force: true });
  }
}

await main();
