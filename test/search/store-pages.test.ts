/**
 * The pages a structure-search build reads from the store (api/catalog/search/structure/feed.ts
 * `storePages`): every molecule once, in id order, across dense runs and wide gaps of ids.
 */
import t from 'tap';
import { storePages } from '../../api/catalog/search/structure/feed.ts';
import { makeStore } from '../catalog/helper.ts';

t.test('every molecule once, in id order, over gaps', async (t) => {
  const store = await makeStore(t);
  t.same(await read(), [], 'an empty catalog: no page');
  await store.insertMany('molecules', Array.from({ length: 9000 }, (_, i) => ({ name: `m${i + 1}`, canonical_smiles: 'C'.repeat(1 + (i % 5)) })));
  // Gaps: 2..5000 gone but every 997th, then a dense run, then 7001..8990 gone.
  const gone = [...Array.from({ length: 4999 }, (_, i) => i + 2).filter((id) => id % 997), ...Array.from({ length: 1990 }, (_, i) => 7001 + i)];
  await store.remove('molecules', gone);
  const want = (await store.find('molecules', {}, { fields: ['id'], sort: [{ field: 'id', dir: 1, nulls: 'last' }] })).map((d) => d.id);
  t.equal(want.length, 9000 - gone.length);
  t.same(await read(), want, `${want.length} molecules, each once, in id order`);

  async function read() {
    const ids: number[] = [];
    for await (const page of storePages(store)()) {
      t.ok(page.length <= 2000, 'a page holds at most 2,000 rows');
      ids.push(...page.map((r) => r.id));
    }
    return ids;
  }
});
