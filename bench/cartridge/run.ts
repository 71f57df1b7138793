/**
 * natprod's catalog structure search next to the RDKit PostgreSQL cartridge (what COCONUT
 * searches with), over the same set, side by side in one run (README.md here):
 *
 *   bench/cartridge/setup.sh                                   # checks packages, private cluster (run.ts calls it too)
 *   node --import tsx bench/cartridge/run.ts [--set bench/data/search-100k.smi] [--repeat 5]
 *        [--threads 2] [--fp-bits 512] [--exact 200] [--similar 50] [--reload] [--keep]
 *
 * 1. natprod's catalog of the set (bench/data/search-catalog.ts; built once into
 *    bench/data/search-store[-<stem>]), the cartridge's tables of the set (load.ts; loaded once
 *    into schema set_<stem> of a private cluster, setup.sh);
 * 2. the api (`node --import tsx api/server.ts`, DATA_DIR = the store) until /health says the
 *    structure index is ready;
 * 3. four kinds of query, each query asked of both in turn, REPEAT rounds after one untimed
 *    round: exact; substructure, first page of 20; substructure as COCONUT asks (the total and
 *    the first page by similarity); similarity, top 50 at 0.7. natprod over HTTP (POST
 *    /api/search, end to end), the cartridge as bare SQL through one psql session (psql's
 *    \timing: the client's round trip);
 * 4. p50/p95 of both and the ratio, load times and sizes, and "same hits": natprod's substructure
 *    totals (COCONUT form) against the cartridge's hits counted by distinct standard InChIKey (and
 *    by row); the differing molecules of any mismatch.
 * Asserts nothing; exits 1 only when it cannot run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EmbeddedStore } from '../../api/catalog/store/embedded.ts';
import { DEFAULT_SET, ensureBenchCatalog, readBenchSet, storeDirFor } from '../data/search-catalog.ts';
import { CORES, CORE_COUNT, exactQueries, similarityQueries, type CoreQuery } from '../data/search-queries.ts';
import { loadSet, sizes } from './load.ts';
import { NatprodApi } from './natprod.ts';
import { lit, Psql } from './psql.ts';

const { values: opt } = parseArgs({
  options: {
    set: { type: 'string', default: DEFAULT_SET },
    repeat: { type: 'string', default: process.env.REPEAT ?? '5' },
    threads: { type: 'string', default: process.env.THREADS ?? '2' },
    'fp-bits': { type: 'string', default: '512' },
    exact: { type: 'string', default: '200' },
    similar: { type: 'string', default: '50' },
    reload: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const SET = resolve(opt.set!);
const REPEAT = Number(opt.repeat);
const THREADS = Number(opt.threads);
const FP_BITS = Number(opt['fp-bits']);
const SETUP = fileURLToPath(new URL('./setup.sh', import.meta.url));

if (!existsSync(SET)) {
  console.error(`${SET} is missing: /usr/bin/python3 bench/data/build-search-set.py ${SET === DEFAULT_SET ? '' : `${opt.set} --count N --seed 7`}`);
  process.exit(1);
}

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const mb = (b: number | null | undefined) => (b == null ? '?' : `${(b / 1048576).toFixed(1)} MB`);
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const dirBytes = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? dirBytes(join(dir, e.name)) : e.isFile() ? statSync(join(dir, e.name)).size : 0), 0);

// 1. natprod's catalog, and the standard InChIKeys it derived (the cartridge's `molecules` rows).
const lines = readBenchSet(SET);
const storeDir = storeDirFor(SET);
const catalog = await ensureBenchCatalog(SET, storeDir, THREADS);
const keys = new Map<number, string | null>();
{
  const store = await EmbeddedStore.open(storeDir);
  let offIds = 0;
  for (const d of await store.find('molecules', {}, { fields: ['identifier', 'standard_inchi_key'] })) {
    const line = Number(String(d.identifier).slice(3));
    if (line !== d.id) offIds++;
    keys.set(line, (d.standard_inchi_key as string | null) ?? null);
  }
  await store.close();
  if (offIds) console.warn(`warning: ${offIds} catalog molecules have an id other than their line number (CNP number): ids compared by CNP number`);
}

// 2. The cartridge.
const wasRunning = spawnSync(SETUP, ['status'], { stdio: 'ignore' }).status === 0;
const setup = spawnSync(SETUP, ['start'], { encoding: 'utf8' });
process.stderr.write(setup.stderr);
if (setup.status !== 0) process.exit(1);
const env = Object.fromEntries(setup.stdout.trim().split('\n').map((l) => l.split('=', 2) as [string, string]));
const psql = new Psql({ bin: join(env.PG_BIN, 'psql'), host: env.CARTRIDGE_PGHOST, port: Number(env.CARTRIDGE_PORT), db: env.CARTRIDGE_DB });
let api: NatprodApi | undefined;
const cleanup = async () => {
  await api?.stop().catch(() => {});
  await psql.close().catch(() => {});
  if (!wasRunning && !opt.keep) spawnSync(SETUP, ['stop'], { stdio: 'inherit' });
};
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

try {
  const load = await loadSet(psql, SET, keys, FP_BITS, opt.reload!, console.log);
  const S = load.schema;
  const version = (await psql.query(`SELECT rdkit_toolkit_version(), rdkit_version(), current_setting('server_version'), current_setting('shared_buffers'), current_setting('jit'), current_setting('max_parallel_workers_per_gather')`)).rows[0];
  await psql.query(`SET rdkit.morgan_fp_size = ${FP_BITS}; SET rdkit.tanimoto_threshold = 0.7`);

  // 3. natprod's api.
  console.log(`starting natprod's api over ${storeDir} (${THREADS} threads) ...`);
  api = await NatprodApi.start(storeDir, THREADS);
  const index = await api.index();
  const rssReady = api.rss();

  // 4. The queries.
  interface Kind {
    label: string;
    queries: { name: string; query: string; smarts: boolean }[];
    natprod: (q: { query: string; smarts: boolean }) => Record<string, unknown>;
    sql: (q: { query: string; smarts: boolean }) => string;
    /** The SQL's last column is COCONUT's `COUNT(*) OVER ()`. */
    counted?: boolean;
  }
  const smiles = lines.map((l) => l.smiles);
  const plain = (qs: string[], n: number) => qs.slice(0, n).map((query, i) => ({ name: `#${i}`, query, smarts: false }));
  const cores = CORES.slice(0, CORE_COUNT).map(([name, query, t]: CoreQuery) => ({ name, query, smarts: t === 'smarts' }));
  const qt = (q: { smarts: boolean }) => (q.smarts ? { query_type: 'smarts' } : {});
  // A SMILES query is a molecule (mol_from_smiles, as COCONUT reads it), a SMARTS query a query
  // molecule (qmol_from_smarts; COCONUT's own SQL reads every query with mol_from_smiles, so a
  // SMARTS query finds nothing there).
  const qmol = (q: { query: string; smarts: boolean }) => (q.smarts ? `qmol_from_smarts(${lit(q.query)}::cstring)` : `mol_from_smiles(${lit(q.query)}::cstring)::mol`);
  const kinds: Kind[] = [
    {
      label: 'exact',
      queries: plain(exactQueries(smiles), Number(opt.exact)),
      natprod: (q) => ({ type: 'exact', query: q.query, count: false, limit: 20 }),
      // COCONUT's: `m@=?` (the cartridge's mol equality; not an InChIKey look-up).
      sql: (q) => `SELECT id, COUNT(*) OVER () AS count FROM ${S}.mols WHERE m@=${lit(q.query)}::mol LIMIT 20 OFFSET 0`,
      counted: true,
    },
    {
      label: 'substructure, first page of 20',
      queries: cores,
      natprod: (q) => ({ type: 'substructure', query: q.query, ...qt(q), count: false, limit: 20 }),
      sql: (q) => `SELECT id, m FROM ${S}.mols WHERE m @> ${qmol(q)} LIMIT 20`,
    },
    {
      label: 'substructure, COCONUT form (total, by similarity)',
      queries: cores,
      natprod: (q) => ({ type: 'substructure', query: q.query, ...qt(q), limit: 20 }),
      // COCONUT's SQL (SearchMolecule.php); a SMARTS query has no fingerprint: by id, as natprod lists it.
      sql: (q) =>
        q.smarts
          ? `SELECT id, m, NULL AS similarity, COUNT(*) OVER () AS count FROM ${S}.mols WHERE m @> ${qmol(q)} ORDER BY id LIMIT 20 OFFSET 0`
          : `SELECT id, m, tanimoto_sml(morganbv_fp(${qmol(q)}), morganbv_fp(m::mol)) AS similarity, COUNT(*) OVER () AS count FROM ${S}.mols WHERE m@> ${qmol(q)} ORDER BY similarity DESC LIMIT 20 OFFSET 0`,
      counted: true,
    },
    {
      label: 'similarity, top 50 at 0.7',
      queries: plain(similarityQueries(smiles), Number(opt.similar)),
      natprod: (q) => ({ type: 'similarity', query: q.query, threshold: 0.7, count: false, limit: 50 }),
      sql: (q) => {
        const fp = `morganbv_fp(mol_from_smiles(${lit(q.query)}::cstring))`;
        return `SELECT id, tanimoto_sml(${fp}, mfp2) AS similarity FROM ${S}.fps WHERE mfp2 % ${fp} ORDER BY ${fp} <%> mfp2 LIMIT 50`;
      },
    },
  ];

  interface Times {
    nat: number[];
    pg: number[];
    /** Per query: natprod's page size and total (null: not counted), the cartridge's rows and count. */
    hits: Map<string, { natRows: number; natTotal: number | null; pgRows: number; pgCount: number | null; natIds: number[]; pgIds: number[] }>;
    perQuery: Map<string, { nat: number[]; pg: number[] }>;
  }
  const results: Times[] = [];
  console.log(`\n${REPEAT} rounds after one untimed round; natprod over HTTP, the cartridge through psql ...`);
  for (const kind of kinds) {
    const t: Times = { nat: [], pg: [], hits: new Map(), perQuery: new Map() };
    for (let round = -1; round < REPEAT; round++) {
      // The untimed round: the first ten queries (all of the substructure ones).
      const qs = round < 0 ? kind.queries.slice(0, 10) : kind.queries;
      for (const q of qs) {
        const ask = async () => {
          const { ms, json } = await api!.search(kind.natprod(q));
          const page = Array.isArray(json.data) ? json : json.data; // natprod's form: the paginator; COCONUT's: {data: paginator}
          const ids = (page.data as { identifier: string }[]).map((r) => Number(r.identifier.slice(3)));
          return { ms, rows: ids.length, total: (page.total ?? null) as number | null, ids };
        };
        const sql = async () => {
          const r = await psql.query(kind.sql(q));
          const count = !kind.counted ? null : r.rows.length ? Number(r.rows[0].at(-1)) : 0;
          return { ms: r.ms, rows: r.rows.length, count, ids: r.rows.map((row) => Number(row[0])) };
        };
        // Which side goes first alternates by round.
        let n, p;
        if (round % 2 === 0) (n = await ask()), (p = await sql());
        else (p = await sql()), (n = await ask());
        if (round < 0) continue;
        t.nat.push(n.ms);
        t.pg.push(p.ms);
        const per = t.perQuery.get(q.name) ?? { nat: [], pg: [] };
        per.nat.push(n.ms);
        per.pg.push(p.ms);
        t.perQuery.set(q.name, per);
        t.hits.set(q.name, { natRows: n.rows, natTotal: n.total, pgRows: p.rows, pgCount: p.count, natIds: n.ids, pgIds: p.ids });
      }
    }
    results.push(t);
    console.log(`  ${kind.label}: ${t.nat.length} queries each side`);
  }
  const rssEnd = api.rss();
  // The floor of each side: a request that does nothing (GET /latest/chem/health, `{"status":"OK"}`; SELECT 1), 50 times.
  const floor = { nat: [] as number[], pg: [] as number[] };
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await api.call('GET', '/latest/chem/health');
    floor.nat.push(performance.now() - t0);
    floor.pg.push((await psql.query('SELECT 1')).ms);
  }

  // 5. Same hits: substructure totals (COCONUT form) against the cartridge's hits.
  const coconut = results[2];
  const same: { name: string; nat: number | null; rows: number; distinct: number; noKey: number }[] = [];
  for (const q of cores) {
    const r = await psql.query(`SELECT count(*), count(DISTINCT k.standard_inchi_key), count(*) FILTER (WHERE k.standard_inchi_key IS NULL) FROM ${S}.mols m JOIN ${S}.molecules k USING (id) WHERE m.m @> ${qmol(q)}`);
    const [rows, distinct, noKey] = r.rows[0].map(Number);
    same.push({ name: q.name, nat: coconut.hits.get(q.name)!.natTotal, rows, distinct, noKey });
  }

  // 6. The report.
  const sz = await sizes(psql, S);
  const p = (xs: number[], q: number) => pct(xs, q).toFixed(1).padStart(8);
  console.log(`\n== natprod vs the RDKit cartridge: ${SET} (${lines.length} molecules) ==`);
  console.log(`natprod: api over the embedded store, ${THREADS} chemistry threads; index ${index.molecules} molecules (${index.unreadable} unreadable)`);
  console.log(`cartridge: PostgreSQL ${version[2]}, RDKit ${version[0]} (cartridge ${version[1]}), shared_buffers ${version[3]}, jit ${version[4]}, max_parallel_workers_per_gather ${version[5]}; ${load.mols} of ${load.lines} rows parsed; Morgan fingerprints ${FP_BITS} bits (natprod: 2048)`);
  console.log(`times in ms; natprod: POST /api/search end to end (HTTP keep-alive); cartridge: psql \\timing of the bare SQL; ${REPEAT} rounds\n`);
  console.log(`${'kind'.padEnd(50)} ${'n'.padStart(5)} | ${'natprod p50'.padStart(11)} ${'p95'.padStart(8)} | ${'cartridge p50'.padStart(13)} ${'p95'.padStart(8)} | natprod/cartridge p50`);
  kinds.forEach((k, i) => {
    const t = results[i];
    const ratio = pct(t.nat, 50) / pct(t.pg, 50);
    console.log(`${k.label.padEnd(50)} ${String(t.nat.length).padStart(5)} | ${p(t.nat, 50).padStart(11)} ${p(t.nat, 95)} | ${p(t.pg, 50).padStart(13)} ${p(t.pg, 95)} | ${ratio.toFixed(2).padStart(6)}x`);
  });

  console.log(`\nsubstructure per query (p50 ms; hits: natprod's total, the cartridge's rows / distinct standard InChIKeys):`);
  console.log(`${'query'.padEnd(18)} ${'first page nat'.padStart(14)} ${'cart'.padStart(8)} | ${'COCONUT form nat'.padStart(16)} ${'cart'.padStart(8)} | ${'natprod'.padStart(8)} ${'rows'.padStart(7)} ${'keys'.padStart(7)}  same hits`);
  const mismatches: typeof same = [];
  for (const s of same) {
    const f = results[1].perQuery.get(s.name)!;
    const c = coconut.perQuery.get(s.name)!;
    const ok = s.nat === s.distinct;
    if (!ok || s.nat !== s.rows) mismatches.push(s);
    const note = ok ? (s.rows !== s.distinct ? `yes (by key; ${s.rows - s.distinct} rows share a key${s.noKey ? `, ${s.noKey} without key` : ''})` : 'yes') : 'NO';
    console.log(`${s.name.padEnd(18)} ${p(f.nat, 50).padStart(14)} ${p(f.pg, 50)} | ${p(c.nat, 50).padStart(16)} ${p(c.pg, 50)} | ${String(s.nat).padStart(8)} ${String(s.rows).padStart(7)} ${String(s.distinct).padStart(7)}  ${note}`);
  }
  const sumHits = (i: number, side: 'nat' | 'pg') => [...results[i].hits.values()].reduce((n, h) => n + (side === 'nat' ? h.natRows : h.pgRows), 0);
  const exactDiff = [...results[0].hits.values()].filter((h) => h.natRows !== h.pgRows).length;
  console.log(`\nexact: hits natprod ${sumHits(0, 'nat')}, cartridge ${sumHits(0, 'pg')} over ${results[0].hits.size} queries (${exactDiff} queries differ: natprod compares whole InChIKeys, the cartridge's @= ignores stereo with rdkit.do_chiral_sss off, COCONUT's setting, so it also finds the stereoisomers)`);
  const sameSim = [...results[3].hits.values()].filter((h) => h.natIds.length === h.pgIds.length && h.natIds.every((id) => h.pgIds.includes(id))).length;
  console.log(
    `similarity: mean hits in the top 50, natprod ${(sumHits(3, 'nat') / results[3].hits.size).toFixed(1)} (2048 bits), cartridge ${(sumHits(3, 'pg') / results[3].hits.size).toFixed(1)} (${FP_BITS} bits); ` +
      `the same molecules for ${sameSim} of ${results[3].hits.size} queries${FP_BITS === 2048 ? '' : ' (other fingerprints: --fp-bits 2048 compares like with like)'}`,
  );
  console.log(`floor (a request doing nothing, p50 of 50): natprod GET /latest/chem/health ${pct(floor.nat, 50).toFixed(2)} ms, cartridge SELECT 1 ${pct(floor.pg, 50).toFixed(2)} ms`);

  console.log(`\nload:`);
  console.log(`  natprod catalog (derive_molecule of every line, ${THREADS} threads): ${catalog.buildMs ? sec(catalog.buildMs) : 'built earlier'}`);
  console.log(`  natprod api start until the index is ready: ${sec(api.readyMs)} (index build ${index.build_ms != null ? sec(index.build_ms) : '?'}${index.snapshot ? `: ${index.snapshot.reused} rows from the saved index, ${index.snapshot.built} built` : ''})`);
  console.log(`  cartridge${load.reused ? ` (loaded earlier, ${load.loadedAt})` : ''}: ${load.steps.map(([l, ms]) => `${l} ${sec(ms)}`).join(', ')}; total ${sec(load.steps.reduce((n, [, ms]) => n + ms, 0))}`);
  console.log(`sizes:`);
  console.log(`  natprod: store on disk ${mb(dirBytes(storeDir))}, index ${mb(index.bytes)}, api RSS ${mb(rssReady)} when ready, ${mb(rssEnd)} after the queries`);
  console.log(`  cartridge (pg_total_relation_size): mols ${mb(sz.mols)} (GiST ${mb(sz.molidx)}), fps ${mb(sz.fps)} (GiST ${mb(sz.fpidx)}), mols + fps ${mb(sz.mols + sz.fps)}; molecules (SMILES, InChIKey) ${mb(sz.molecules)}; database ${mb(sz.db)}`);

  if (mismatches.length) {
    console.log(`\nsame hits: ${mismatches.length} of ${same.length} queries differ (natprod's total against the cartridge's rows or keys):`);
    for (const m of mismatches) await explainMismatch(m.name);
  } else {
    console.log(`\nsame hits: every substructure total of natprod equals the cartridge's hits (rows and distinct InChIKeys)`);
  }

  /** The molecules found by one side only (natprod's hits paged through its COCONUT form, 100 a page). */
  async function explainMismatch(name: string): Promise<void> {
    const q = cores.find((c) => c.name === name)!;
    const pg = new Set((await psql.query(`SELECT id FROM ${S}.mols WHERE m @> ${qmol(q)}`)).rows.map((r) => Number(r[0])));
    const nat = new Set<number>();
    for (let page = 1; page <= 50; page++) {
      const { json } = await api!.search({ type: 'substructure', query: q.query, ...qt(q), limit: 100, page });
      for (const rec of json.data.data as { identifier: string }[]) nat.add(Number(rec.identifier.slice(3)));
      if (!json.data.next_page_url) break;
    }
    const onlyNat = [...nat].filter((id) => !pg.has(id));
    const onlyPg = [...pg].filter((id) => !nat.has(id));
    console.log(`  ${name}: natprod ${nat.size} listed, cartridge ${pg.size}; natprod only ${onlyNat.length}, cartridge only ${onlyPg.length}`);
    const show = (ids: number[], who: string) => ids.slice(0, 5).forEach((id) => console.log(`    ${who} only: ${id} ${lines[id - 1]?.smiles} ${lines[id - 1]?.name} key ${keys.get(id) ?? 'none'}`));
    show(onlyNat, 'natprod');
    show(onlyPg, 'cartridge');
  }
} finally {
  await cleanup();
}
