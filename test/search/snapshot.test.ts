/**
 * The structure-search index's rows saved on disk (shared/structure-search/snapshot.ts): a
 * rebuild over the same molecules takes every row from the file and answers as the first build
 * did; changed, added and removed molecules are built or left out; a damaged file costs only the
 * time to build every row; and the api, restarted on its DATA_DIR, reads its index back.
 */
import t from 'tap';
import { mkdtemp, rm, truncate, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchService } from '../../shared/structure-search/service.ts';
import { createPool } from '../../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { derivedFields } from '../../api/catalog/mutate/derived.ts';
import { build } from '../helpers/app.ts';

const SMILES = [
  'Oc1ccc(CC)cc1',
  'c1ccc2[nH]ccc2c1',
  'CC(=O)Oc1ccccc1C(=O)O',
  'O=c1ccc2ccccc2o1',
  'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O',
  'CN1CCC[C@H]1c1cccnc1',
  'Cn1cnc2c1c(=O)n(C)c(=O)n2C',
  'O=C(O)c1ccccc1O',
  'C=CC(C)=C',
  'c1ccc2ncccc2c1',
];

t.test('a rebuild reuses the saved rows of unchanged molecules and builds the others', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-snapshot-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'search-index', 'rows.bin');
  const pool = createPool(2, threadConfig(loadConfig({ WORKERS: '2', LOG_LEVEL: 'silent' })));
  t.teardown(() => pool.destroy());
  // 300 molecules, ids with gaps: the ten structures, then phenols, amines and indoles with chains.
  const chain = (i: number) => 'C'.repeat(1 + (i % 25));
  const inputs = Array.from({ length: 300 }, (_, i) => ({ id: 3 * i + 1, smiles: i < 10 ? SMILES[i] : [`Oc1ccc(${chain(i)})cc1`, `${chain(i)}N`, `${chain(i)}c1ccc2[nH]ccc2c1`][i % 3] }));
  const rebuild = async (rows: { id: number; smiles: string }[]) => {
    const svc = new SearchService(pool, { snapshot: file });
    await svc.rebuild(async function* () {
      yield rows.slice(0, 150);
      yield rows.slice(150);
    }, rows.length);
    await svc.saving;
    return svc;
  };
  const answers = async (svc: SearchService) => ({
    phenols: await svc.search({ type: 'substructure', query: 'c1ccccc1O', query_type: 'smiles', use_chirality: false, threshold: 0.7, offset: 0, limit: 0, count: true }),
    similar: await svc.search({ type: 'similarity', query: 'Oc1ccc(CC)cc1', query_type: 'smiles', use_chirality: false, threshold: 0.3, offset: 0, limit: 50 }),
  });
  const strip = (a: Awaited<ReturnType<typeof answers>>) => ({ phenols: [a.phenols.ids, a.phenols.total], similar: [a.similar.ids, a.similar.scores] });

  const first = await rebuild(inputs);
  t.match(first.health().snapshot, { reused: 0, built: 300 }, 'first build: every row built');
  t.ok(first.health().snapshot!.saved_bytes! > 300 * 256, `saved (${first.health().snapshot!.saved_bytes} bytes)`);
  const want = strip(await answers(first));
  t.ok((want.phenols[1] as number) > 30, 'the phenols are found');

  const written = await stat(file);
  const second = await rebuild(inputs);
  t.match(second.health().snapshot, { reused: 300, built: 0, unchanged: true }, 'same molecules: every row from the file');
  t.equal((await stat(file)).mtimeMs, written.mtimeMs, 'and the file, which holds those rows already, is not written again');
  t.notOk(second.health().snapshot!.saved_bytes);
  t.same(strip(await answers(second)), want, 'and the same answers');
  t.equal(second.health().molecules, 300);

  // One changed, one gone, one new (an id between two saved ones).
  const changed = inputs.filter((r) => r.id !== 4).map((r) => (r.id === 1 ? { id: 1, smiles: 'CCCCCCCCCC' } : r));
  changed.splice(4, 0, { id: 15, smiles: 'Oc1ccccc1Cl' });
  t.ok(changed.every((r, i) => i === 0 || changed[i - 1].id < r.id), 'in id order, as the store pages them');
  const third = await rebuild(changed);
  t.match(third.health().snapshot, { reused: 298, built: 2 }, 'changed and new molecules built, the rest reused');
  t.notOk(third.health().snapshot!.unchanged);
  t.ok(third.health().snapshot!.saved_bytes! > 0, 'and saved');
  const ids = (await third.search({ type: 'substructure', query: 'c1ccccc1O', query_type: 'smiles', use_chirality: false, threshold: 0.7, offset: 0, limit: 0, count: true })).ids;
  t.notOk(ids.includes(1), 'the changed molecule is found as it is now');
  t.notOk(ids.includes(4), 'the removed one is gone');
  t.ok(ids.includes(15), 'the new one is found');

  // A damaged file: every row built, the error said, and the save replaces it.
  await truncate(file, (await stat(file)).size - 100);
  const fourth = await rebuild(changed);
  t.match(fourth.health().snapshot, { reused: 0, built: 300, error: /could not be read \(the snapshot is truncated\)/ }, 'a truncated file: built again, and said');
  const fifth = await rebuild(changed);
  t.match(fifth.health().snapshot, { reused: 300, built: 0 }, 'the next build reads the file the last one saved');
  t.notOk(fifth.health().snapshot!.error, 'no error then');
});

t.test('a build from pages that give fingerprints only by version reads whole only the rows its snapshot lacks', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-snapshot-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'rows.bin');
  const pool = createPool(2, threadConfig(loadConfig({ WORKERS: '2', LOG_LEVEL: 'silent' })));
  t.teardown(() => pool.destroy());
  // The store's part: fingerprints as the first build computes them, kept by id.
  const stored = new Map<number, unknown>();
  const rows = (smiles: string[]) => smiles.map((s, i) => ({ id: i + 1, smiles: s }));
  const backfill = new SearchService(pool, { onFingerprints: (items) => void items.forEach((x) => stored.set(x.id, x.fingerprints)) });
  await backfill.rebuild(async function* () {
    yield rows(SMILES);
  }, SMILES.length);
  t.equal(stored.size, SMILES.length, 'fingerprints computed for every molecule');
  // The first build with a snapshot, from whole rows (the distributed mode's pages, or an older version's).
  const first = new SearchService(pool, { snapshot: file });
  await first.rebuild(async function* () {
    yield rows(SMILES).map((r) => ({ ...r, fingerprints: stored.get(r.id) }));
  }, SMILES.length);
  await first.saving;
  const query = { type: 'substructure' as const, query: 'c1ccccc1', query_type: 'smiles' as const, use_chirality: false, threshold: 0.7, offset: 0, limit: 0, count: true };
  const want = (await first.search(query)).ids;

  const changed = SMILES.map((s, i) => (i === 3 ? 'CCCCCC' : s));
  const asked: number[] = [];
  const second = new SearchService(pool, {
    snapshot: file,
    complete: async (ids) => {
      asked.push(...ids);
      return ids.map((id) => ({ id, smiles: changed[id - 1]!, fingerprints: stored.get(id) }));
    },
  });
  await second.rebuild(async function* () {
    // (molecule 4's stored fingerprints are of its old structure here, as a store would hold them until written)
    yield rows(changed).map((r) => ({ ...r, fingerprints: { v: (stored.get(r.id) as { v: number }).v } }));
  }, SMILES.length);
  t.same(asked, [4], 'only the changed molecule was read whole');
  t.match(second.health().snapshot, { reused: SMILES.length - 1, built: 1 });
  t.ok(want.includes(4), 'molecule 4 had a benzene ring');
  t.same((await second.search(query)).ids, want.filter((id) => id !== 4), 'and is no longer found: its row was built from its SMILES as they are now');
});

t.test('the api restarted on its DATA_DIR reads its index back', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-snapshot-api-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const start = async () => {
    const ctx = (await build(t, 'inline', { DATA_DIR: dir }))!;
    await ctx.services.searchIndex.start();
    return ctx;
  };
  const a = await start();
  for (const [i, s] of SMILES.entries()) {
    const d = await a.services.derive({ structure: s });
    await a.services.store.insert('molecules', { ...derivedFields(d), name: `m${i}` });
  }
  await a.services.searchIndex.start();
  const health = async (ctx: Awaited<ReturnType<typeof start>>) => ((await ctx.app.inject({ url: '/health' })).json() as { structure_search: { index: { molecules: number; snapshot: { reused: number; built: number } } } }).structure_search.index;
  t.match(await health(a), { molecules: 10, snapshot: { reused: 0, built: 10 } }, 'built, and /health says so');
  const query = { type: 'similarity', query: 'Oc1ccc(CC)cc1', threshold: 0.2, count: false };
  const before = (await a.app.inject({ method: 'POST', url: '/api/search', payload: query })).json();
  await a.app.close();
  await a.services.close();

  const b = await start();
  t.match(await health(b), { molecules: 10, snapshot: { reused: 10, built: 0 } }, 'after the restart every row came from the file');
  const after = (await b.app.inject({ method: 'POST', url: '/api/search', payload: query })).json();
  t.same(after.data.map((d: { id: number; similarity: number }) => [d.id, d.similarity]), before.data.map((d: { id: number; similarity: number }) => [d.id, d.similarity]), 'the same hits and scores');
});
