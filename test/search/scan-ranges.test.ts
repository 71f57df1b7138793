/**
 * How a substructure scan is cut and stopped (shared/structure-search/scan-plan.ts, scan.ts,
 * service.ts): the growing ranges of a first page cover every row once and in order; a range
 * placed after the scan's stop word ends at once; and a first page found through small ranges and
 * the stop word is the first page of the full scan, at every offset; and the exact matches the
 * api lists first, looked up beside the scan, give the counted order on every page.
 */
import t from 'tap';
import { growingRanges, lastRangeNeeded, split } from '../../shared/structure-search/scan-plan.ts';
import { IndexColumns } from '../../shared/structure-search/columns.ts';
import { SearchService } from '../../shared/structure-search/service.ts';
import { createPool } from '../../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { runPoolTask } from '../../shared/ops/task-types.ts';
import { derivedFields } from '../../api/catalog/mutate/derived.ts';
import { build } from '../helpers/app.ts';

t.test('growing ranges cover the rows once, in order, doubling per wave up to the largest', async (t) => {
  for (const [n, first, lanes, largest] of [
    [0, 1024, 4, 20_000],
    [1, 1024, 4, 20_000],
    [5000, 1024, 4, 1250],
    [100_000, 1024, 4, 12_500],
    [700_000, 1024, 4, 20_000],
    [37, 4, 3, 10],
  ]) {
    const r = growingRanges(n, first, lanes, largest);
    let at = 0;
    for (const [from, to] of r) {
      t.equal(from, at, `n=${n}: ranges are contiguous`);
      t.ok(to > from && to - from <= largest, `n=${n}: a range holds 1 to ${largest} rows`);
      at = to;
    }
    t.equal(at, n, `n=${n}: the ranges end at the last row`);
    if (n >= 100_000) {
      t.same(r.slice(0, 9).map(([a, b]) => b - a), [1024, 1024, 1024, 1024, 2048, 2048, 2048, 2048, 4096], `n=${n}: ${lanes} ranges a wave, each wave twice the last`);
      t.equal(r.at(-2)![1] - r.at(-2)![0], largest, `n=${n}: then ranges of the largest size`);
    }
  }
  t.same(split(10, 3), [[0, 4], [4, 8], [8, 10]], 'split: about `parts` equal ranges');
});

t.test('the last range a first page needs, as ranges finish in any order', async (t) => {
  const u = undefined;
  // [hits by range (undefined: not finished), the range that just finished, hits needed, answer]
  const cases: [(number | undefined)[], number, number, number | undefined][] = [
    [[25, u, u, u], 0, 21, 0],
    [[5, u, u, u], 0, 21, u],
    [[5, u, 30, u], 2, 21, 2],
    [[u, u, 30, u], 2, 21, 2],
    [[5, 10, u, 30], 3, 21, 3],
    [[5, 10, 8, u], 2, 21, 2],
    [[5, 10, 8, 30], 2, 21, 2],
    [[5, 20, u, u], 1, 21, 1],
    [[5, 10, u, 8], 3, 21, u],
    [[5, 10, 3, 8], 2, 21, 3],
    [[0, 0, 0, 0], 3, 1, u],
  ];
  for (const [hits, i, need, want] of cases) t.equal(lastRangeNeeded(hits, i, need), want, `${JSON.stringify(hits)} after range ${i}, ${need} needed: ${want}`);
});

t.test('the stop word ends the ranges placed after it; a first page is the full scan\'s', async (t) => {
  const config = loadConfig({ WORKERS: '2', LOG_LEVEL: 'silent' });
  const pool = createPool(2, threadConfig(config));
  t.teardown(() => pool.destroy());
  // 5,000 molecules: every third one a phenol (the hits), the others amines and alcohols.
  const smiles = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `Oc1ccc(${'C'.repeat(1 + (i % 7))})cc1` : i % 3 === 1 ? `${'C'.repeat(2 + (i % 9))}N` : `C${'C'.repeat(i % 11)}O`));
  const built = await runPoolTask(pool, 'catalog_index_rows', { rows: smiles.map((s, i) => ({ id: i + 1, smiles: s })) }, { timeoutMs: 60_000 });
  const cols = new IndexColumns(1024);
  cols.put(built.rows);
  const index = cols.view();
  const scan = (part: number, stopAt: number) => {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    stop[0] = stopAt;
    return runPoolTask(pool, 'catalog_scan_substructure', { query: 'c1ccccc1O', query_type: 'smiles', index, from: 100, to: 400, use_chirality: false, limit: 0, part, stop: stop.buffer }, { timeoutMs: 10_000 });
  };
  const stopped = await scan(3, 2);
  t.same({ ids: stopped.ids, next: stopped.next, candidates: stopped.candidates }, { ids: [], next: 100, candidates: 0 }, 'a range after the stop word matches nothing and says it stopped at its first row');
  const running = await scan(2, 2);
  t.equal(running.next, 400, 'a range at the stop word runs to its end');
  t.same(running.ids, Array.from({ length: 100 }, (_, k) => 103 + 3 * k), 'and finds every phenol of its rows');

  // Through the service, with first ranges of 256 rows (4,096 in use): 256, 512, then 625 rows
  // a range, so pages at every offset come from many ranges, of which the later ones are stopped
  // or never started once the first hold the page.
  const service = new SearchService(pool, { firstRangeRows: 256 });
  await service.rebuild(async function* () {
    yield smiles.map((s, i) => ({ id: i + 1, smiles: s }));
  }, smiles.length);
  const all = await service.search({ type: 'substructure', query: 'c1ccccc1O', query_type: 'smiles', use_chirality: false, threshold: 0.7, offset: 0, limit: 0, count: true });
  t.equal(all.total, 1667, 'the full scan finds the 1,667 phenols');
  for (const offset of [0, 20, 340, 341, 1000, 1640, 1647, 1666, 1667]) {
    const page = await service.search({ type: 'substructure', query: 'c1ccccc1O', query_type: 'smiles', use_chirality: false, threshold: 0.7, offset, limit: 20 });
    t.same(page.ids, all.ids.slice(offset, offset + 20), `offset ${offset}: the page is the full scan's`);
    t.equal(page.more, offset + 20 < 1667, `offset ${offset}: more is right`);
  }
});

t.test('a first page without a count lists the exact matches first, also past the scan\'s slack', async (t) => {
  const ctx = (await build(t, 'inline'))!;
  const { app, services } = ctx;
  // Eight stereoisomers of one skeleton (exact matches of each other when chirality is off) and
  // five glycosides that hold it: more exact matches among the hits than the scan's slack (4).
  const hexoses = ['OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O', 'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@H]1O', 'OC[C@H]1OC(O)[C@@H](O)[C@@H](O)[C@@H]1O', 'OC[C@H]1OC(O)[C@H](O)[C@H](O)[C@@H]1O', 'OC[C@@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O', 'OC[C@H]1OC(O)[C@@H](O)[C@H](O)[C@@H]1O', 'OC[C@H]1OC(O)[C@@H](O)[C@@H](O)[C@H]1O', 'OC[C@H]1OC(O)[C@H](O)[C@H](O)[C@H]1O'];
  const glycosides = ['COC1OC(CO)C(O)C(O)C1O', 'CCOC1OC(CO)C(O)C(O)C1O', 'O=C(O)c1ccccc1OC1OC(CO)C(O)C(O)C1O', 'Oc1ccc(OC2OC(CO)C(O)C(O)C2O)cc1', 'CC(=O)OCC1OC(O)C(O)C(O)C1O'];
  // Glycosides first: the exact matches then have the higher ids and come first only by rule.
  for (const [i, s] of [...glycosides, ...hexoses].entries()) {
    const d = await services.derive({ structure: s });
    await services.store.insert('molecules', { ...derivedFields(d), name: `m${i}` });
  }
  await services.searchIndex.start();
  const query = hexoses[0];
  const search = async (body: Record<string, unknown>) => {
    const r = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'substructure', query, ...body } });
    t.equal(r.statusCode, 200);
    return r.json() as { data: { id: number }[]; has_more: boolean; total: number | null };
  };
  for (const chirality of [false, true]) {
    const all = (await search({ use_chirality: chirality, count: true, limit: 100 })).data.map((d) => d.id);
    // With chirality the query's centres match only the same centres: glucose itself.
    t.equal(all.length, chirality ? 1 : 13, `chirality ${chirality}: every hit counted`);
    for (const [page, limit] of [[1, 3], [2, 3], [3, 3], [1, 6], [2, 6], [1, 20]]) {
      const got = await search({ use_chirality: chirality, count: false, limit, page });
      const want = all.slice((page - 1) * limit, page * limit);
      t.same(got.data.map((d) => d.id), want, `chirality ${chirality}, page ${page} of ${limit}: the counted order`);
      t.equal(got.has_more, page * limit < all.length, `chirality ${chirality}, page ${page} of ${limit}: has_more`);
    }
  }
});
