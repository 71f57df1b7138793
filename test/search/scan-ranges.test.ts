/**
 * How a substructure scan is cut and stopped (shared/structure-search/scan-plan.ts, board.ts,
 * scan.ts, service.ts): the board of a first page gives the window's first hits whatever order
 * its lanes run in; the lanes on the threads stop once the page is known; a first page found
 * through windows is the first page of the full scan, at every offset, also with dead rows; and
 * the exact matches the api lists first, looked up beside the scan, give the counted order on
 * every page.
 */
import t from 'tap';
import { split } from '../../shared/structure-search/scan-plan.ts';
import { createBoard, Lane, readBoard } from '../../shared/structure-search/board.ts';
import { IndexColumns } from '../../shared/structure-search/columns.ts';
import { SearchService } from '../../shared/structure-search/service.ts';
import { createPool } from '../../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { runPoolTask } from '../../shared/ops/task-types.ts';
import { derivedFields } from '../../api/catalog/mutate/derived.ts';
import { build } from '../helpers/app.ts';

t.test('split cuts n rows into about `parts` equal ranges', async (t) => {
  t.same(split(10, 3), [[0, 4], [4, 8], [8, 10]]);
  t.same(split(0, 4), [], 'no rows, no ranges');
  t.same(split(3, 8), [[0, 1], [1, 2], [2, 3]], 'never an empty range');
});

/**
 * The board's protocol as a model: lanes take their candidates (j, j+L, ...) in steps, in a random
 * order of lanes (a thread busy elsewhere is a lane that waits), each looking at the board before
 * each of its candidates as scanFirstHits does. Whatever the order, the decided hits are the first
 * hits of the window, at least `need` of them unless the window holds fewer.
 */
t.test('the board: the decided hits are the window\'s first, whatever order the lanes run in', async (t) => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let trials = 0;
  for (const lanes of [1, 2, 3, 4]) {
    for (const need of [1, 5, 21]) {
      for (const density of [0.02, 0.3, 0.9]) {
        for (let trial = 0; trial < 25; trial++) {
          const n = Math.floor(random() * 300);
          const hit = Array.from({ length: n }, () => random() < density);
          const board = createBoard(lanes, need);
          const state = Array.from({ length: lanes }, (_, j) => ({ lane: new Lane(board, j, lanes, need), k: j, ended: false, ids: [] as number[], ordinals: [] as number[] }));
          for (let live = state; live.length; live = state.filter((s) => !s.ended)) {
            const s = live[Math.floor(random() * live.length)];
            if (s.k >= n) {
              s.lane.finished();
              s.ended = true;
            } else if (s.lane.enough()) s.ended = true;
            else {
              if (hit[s.k]) s.ids.push(1000 + s.k), s.ordinals.push(s.k);
              s.lane.decided(s.k, hit[s.k]);
              s.k += lanes;
            }
          }
          const all = hit.flatMap((h, k) => (h ? [1000 + k] : []));
          const got = readBoard(board, lanes, state);
          const label = `${lanes} lanes, need ${need}, ${n} candidates, ${all.length} hits`;
          if (got.whole) t.same(got.ids, all, `${label}: a whole window gives every hit`);
          else {
            t.ok(got.ids.length >= need, `${label}: a window left early holds the page`);
            t.same(got.ids, all.slice(0, got.ids.length), `${label}: the first hits, in order`);
          }
          trials++;
        }
      }
    }
  }
  t.equal(trials, 900);
});

t.test('first-page lanes on the threads, together or one after the other; the service\'s pages are the full scan\'s', async (t) => {
  const config = loadConfig({ WORKERS: '2', LOG_LEVEL: 'silent' });
  const pool = createPool(2, threadConfig(config));
  t.teardown(() => pool.destroy());
  // 5,000 molecules: every third one a phenol (the hits), the others amines and alcohols.
  const smiles = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `Oc1ccc(${'C'.repeat(1 + (i % 7))})cc1` : i % 3 === 1 ? `${'C'.repeat(2 + (i % 9))}N` : `C${'C'.repeat(i % 11)}O`));
  const built = await runPoolTask(pool, 'catalog_index_rows', { rows: smiles.map((s, i) => ({ id: i + 1, smiles: s })) }, { timeoutMs: 60_000 });
  const cols = new IndexColumns(1024);
  cols.put(built.rows);
  const index = cols.view();
  const phenols = (from: number, to: number) => Array.from({ length: 5000 }, (_, i) => i + 1).filter((id) => (id - 1) % 3 === 0 && id - 1 >= from && id - 1 < to);
  const lane = (board: SharedArrayBuffer, l: number, lanes: number, need: number, from = 100, to = 400) =>
    runPoolTask(pool, 'catalog_scan_first_hits', { query: 'c1ccccc1O', query_type: 'smiles', index, from, to, use_chirality: false, need, lane: l, lanes, board }, { timeoutMs: 10_000 });

  let board = createBoard(2, 10);
  let results = await Promise.all([lane(board, 0, 2, 10), lane(board, 1, 2, 10)]);
  let got = readBoard(board, 2, results);
  t.same(got.ids.slice(0, 10), phenols(100, 400).slice(0, 10), 'two lanes at once: the first ten phenols of the window');
  t.notOk(got.whole, 'and they stopped before its end');
  t.ok(results.every((r) => r.candidates <= 10), `each matched about half (${results.map((r) => r.candidates)})`);

  // One lane after the other (a thread busy elsewhere): the first stops at its own ten hits, the second once the page is known.
  board = createBoard(2, 10);
  const first = await lane(board, 0, 2, 10);
  t.equal(first.ids.length, 10, 'a lane alone stops at its own ten hits');
  const second = await lane(board, 1, 2, 10);
  got = readBoard(board, 2, [first, second]);
  t.same(got.ids.slice(0, 10), phenols(100, 400).slice(0, 10), 'then the other: the same first ten');

  board = createBoard(2, 500);
  results = await Promise.all([lane(board, 0, 2, 500), lane(board, 1, 2, 500)]);
  got = readBoard(board, 2, results);
  t.ok(got.whole, 'a window with fewer hits than needed is screened to its end');
  t.same(got.ids, phenols(100, 400), 'and gives every hit of it, in order');

  const e = await runPoolTask(pool, 'catalog_scan_first_hits', { query: 'c1ccccc1O', query_type: 'smiles', index, from: 0, to: 10, use_chirality: false, need: 10, lane: 0, lanes: 2, board: new SharedArrayBuffer(8) }, { timeoutMs: 10_000 }).catch((x) => x);
  t.equal(e.status, 422, 'a board too small for its lanes and hits is refused');

  // Through the service, with windows of 256 rows at first (16,384 in use): pages at every offset
  // come from many windows; then again with rows removed (dead rows are numbered, never matched).
  const service = new SearchService(pool, { firstWindowRows: 256 });
  await service.rebuild(async function* () {
    yield smiles.map((s, i) => ({ id: i + 1, smiles: s }));
  }, smiles.length);
  const base = { type: 'substructure', query: 'c1ccccc1O', query_type: 'smiles', use_chirality: false, threshold: 0.7 } as const;
  for (const removed of [[], [1, 4, 301, 1000, 1003, 4999]]) {
    if (removed.length) await service.apply([], removed);
    const all = await service.search({ ...base, offset: 0, limit: 0, count: true });
    t.equal(all.total, 1667 - removed.length, `the full scan finds the ${1667 - removed.length} phenols`);
    for (const offset of [0, 20, 340, 341, 1000, 1640, 1647, 1660, 1667]) {
      const page = await service.search({ ...base, offset, limit: 20 });
      t.same(page.ids, all.ids.slice(offset, offset + 20), `${removed.length} removed, offset ${offset}: the page is the full scan's`);
      t.equal(page.more, offset + 20 < all.total!, `${removed.length} removed, offset ${offset}: more is right`);
    }
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

t.test('IndexColumns: each id has at most one live row, found again through puts in and out of order, removals and compactions (against a model)', async (t) => {
  const cols = new IndexColumns(8, 8, 8);
  const model = new Map<number, number>(); // id -> the tag of its current row
  let seed = 42;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  const row = (id: number, tag: number) => ({ id, pattern: new Uint8Array(256), morgan: Uint16Array.of(tag & 0xffff), pickle: Uint8Array.of(tag & 0xff, (tag >> 8) & 0xff) });
  const check = (when: string) => {
    const v = cols.view();
    const ids = new Int32Array(v.ids);
    const alive = new Uint8Array(v.alive);
    const morganStart = new Uint32Array(v.morganStart);
    const morgan = new Uint16Array(v.morganHeap);
    const seen = new Map<number, number>();
    for (let r = 0; r < v.count; r++) {
      if (!alive[r]) continue;
      if (seen.has(ids[r])) return t.fail(`${when}: id ${ids[r]} has two live rows`);
      seen.set(ids[r], morgan[morganStart[r]]);
    }
    t.same([...seen].sort((a, b) => a[0] - b[0]), [...model].map(([id, tag]) => [id, tag & 0xffff]).sort((a, b) => a[0] - b[0]), `${when}: the live rows are the model's`);
    t.equal(cols.live, model.size);
  };
  let tag = 1;
  // A build in id order, with gaps.
  const first = Array.from({ length: 300 }, (_, i) => 3 * i + 1);
  cols.put(first.map((id) => row(id, tag++)));
  first.forEach((id, i) => model.set(id, i + 1));
  check('after the build');
  for (let round = 0; round < 40; round++) {
    const ops = 1 + rand(30);
    for (let k = 0; k < ops; k++) {
      const op = rand(10);
      const id = 1 + rand(1000);
      if (op < 6) {
        cols.put([row(id, tag)]);
        model.set(id, tag++);
      } else {
        t.equal(cols.remove(id), model.delete(id), `remove ${id} says whether it had a row`);
      }
    }
    check(`round ${round}`);
    if (rand(3) === 0 || cols.untidy) {
      cols.compact();
      check(`round ${round}, compacted`);
    }
  }
});
