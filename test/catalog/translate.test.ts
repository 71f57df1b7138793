/** The translator's output shape (what both stores execute), LIKE → regex, and the mongo rewrite. */
import t from 'tap';
import { likeToRegex } from '../../api/catalog/search/lomkit/like.ts';
import { translateSearch } from '../../api/catalog/search/lomkit/query.ts';
import { molecules } from '../../api/catalog/schema/resources.ts';
import { toMongoFilter } from '../../api/catalog/store/mongo.ts';
import { makeStore } from './helper.ts';

t.test('search → {filter, sort, projection, skip, limit}', async (t) => {
  const store = await makeStore(t);
  const q = await translateSearch(molecules, {
    filters: [
      { field: 'identifier', operator: '=', value: 'CNP0000001' },
      { field: 'properties.molecular_weight', operator: '>=', value: 100 },
      { field: 'properties.molecular_weight', operator: '<', value: 200 },
      { field: 'murko_framework', operator: '!=', value: 'c1ccccc1' },
    ],
    selects: [{ field: 'name' }],
    page: 3,
    limit: 10,
  }, { store });
  t.same(q.filter, {
    identifier: 'CNP0000001',
    'properties.molecular_weight': { $gte: 100, $lt: 200 },
    murcko_framework: { $exists: true, $nin: [null, 'c1ccccc1'] },
  }, 'ANDs merge into one object, ranges merge (index-friendly)');
  t.same(q.sort, [{ field: 'id', dir: -1, nulls: 'first' }]);
  t.same(q.projection, ['name']);
  t.equal(q.skip, 20);
  t.equal(q.limit, 10);
  const d = await translateSearch(molecules, {}, { store });
  t.match(d, { filter: {}, limit: 50, skip: 0, sort: [{ field: 'id', dir: -1 }] }, 'defaults: limit 50, id desc');
  const or = await translateSearch(molecules, { filters: [{ field: 'name', value: 'a' }, { field: 'name', value: 'b', type: 'or' }, { field: 'active', value: true }] }, { store });
  t.same(or.filter, { $or: [{ name: 'a' }, { name: 'b', active: true }] }, 'AND binds tighter than OR');
  const s = await translateSearch(molecules, { sorts: [{ field: 'name', direction: 'asc' }, { field: 'status', direction: 'desc' }] }, { store });
  t.same(s.sort, [{ field: 'name', dir: 1, nulls: 'last' }, { field: 'status', dir: -1, nulls: 'first' }, { field: 'id', dir: 1, nulls: 'last' }]);
  const like = await translateSearch(molecules, { filters: [{ field: 'name', operator: 'like', value: 'Caf%' }] }, { store });
  t.match(like.filter, { name: { $gte: 'Caf', $lt: 'Cag', $regex: /^Caf[\s\S]*$/ } }, 'prefix LIKE gets an index range');
});

t.test('likeToRegex', async (t) => {
  const cases: [string, string, boolean][] = [
    ['abc', 'abc', true], ['abc', 'ABC', false], ['a%', 'a', true], ['%c', 'abc', true], ['_b_', 'abc', true], ['_b_', 'abcd', false],
    ['%b%d', 'abcd', true], ['%b%d', 'abdc', false], ['a.c', 'abc', false], ['a+', 'aa', false], ['a+', 'a+', true], ['[x]', '[x]', true],
    ['50\\%', '50%', true], ['50\\%', '501', false], ['a\\_b', 'a_b', true], ['a\\_b', 'axb', false], ['%', '', true], ['%a%', 'line\nwith a', true],
    ['$^', '$^', true], ['(?:x)', '(?:x)', true], ['%ab%ab', 'abab', true], ['%ab%ab', 'ab', false],
  ];
  for (const [p, s, want] of cases) t.equal(likeToRegex(p).regex.test(s), want, `${JSON.stringify(p)} ~ ${JSON.stringify(s)}`);
  // a backtracking translation (.*a.*a...) would not finish on this input; the atomic one does at once
  t.notOk(likeToRegex('%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b').regex.test('a'.repeat(20000)));
});

t.test('mongo adapter rewrites $not to $nor', async (t) => {
  t.same(toMongoFilter({ $and: [{ a: { $exists: true } }, { $not: { a: { $regex: /x/ } } }] }), { $and: [{ a: { $exists: true } }, { $nor: [{ a: { $regex: /x/ } }] }] });
});
