/**
 * The store's query paths behind COCONUT's search: `containing` (text search with ranks) on both
 * stores, and the embedded store's candidate planner (indexes, lazily built columns, `$and`,
 * `$or`), whose answers must equal nedb's own matcher over every document (the reference here:
 * nedb's `model.match`, applied to all documents by this test).
 */
import t from 'tap';
import { createRequire } from 'node:module';
import { makeStore, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import type { CatalogStore, Doc, Filter } from '../../api/catalog/store/types.ts';

const nedbMatch = (createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as { match: (d: unknown, q: unknown) => boolean }).match;

/** Deterministic pseudo-random numbers. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

for (const kind of storeKinds({ mingo: true })) {
  t.test(`containing: ranks and extra fields (${kind})`, storeVariant(kind), async (t) => {
    const s = await makeStore(t, kind);
    await s.insertMany('molecules', [
      { name: 'Quercetin', identifier: 'CNP0000001', synonyms: ['sophoretin'], active: true },
      { name: 'quercetin 3-glucoside', identifier: 'CNP0000002', active: false },
      { name: 'rutin', identifier: 'CNP0000003', synonyms: ['Quercetin rutinoside', 'QUERCETIN'], active: true },
      { name: null, identifier: 'CNP0000004' },
      { name: '100% pure', identifier: 'CNP0000005' },
    ]);
    const hits = await s.containing('molecules', ['name', 'synonyms', 'identifier'], 'QUERCETIN', ['active']);
    const byId = Object.fromEntries(hits.map((h) => [h.id, h]));
    t.same(Object.keys(byId).map(Number).sort(), [1, 2, 3]);
    t.match(byId[1], { rank: 0, active: true }, 'the name equals the text, ignoring case');
    t.match(byId[2], { rank: 3, active: false }, 'the name contains it');
    t.match(byId[3], { rank: 1 }, 'a synonym equals it');
    t.same((await s.containing('molecules', ['identifier'], 'cnp000000')).map((h) => h.id).sort(), [1, 2, 3, 4, 5]);
    t.same((await s.containing('molecules', ['name'], '100%')).map((h) => h.id), [5], 'literal, no wildcard');
    t.same(await s.containing('molecules', ['name'], '.*'), [], 'no regular expression either');
    await s.update('molecules', 2, { name: 'isoquercitrin' });
    t.same((await s.containing('molecules', ['name'], 'quercetin')).map((h) => h.id), [1], 'a write is seen at once');
  });
}

t.test('embedded planner: planned answers equal nedb\'s matcher over all documents', async (t) => {
  const s: CatalogStore = await makeStore(t, 'embedded');
  const random = rng(7);
  const classes = ['Flavonoids', 'Prenol lipids', 'Organic acids and derivatives', 'Steroids and steroid derivatives'];
  const docs: Record<string, unknown>[] = [];
  for (let i = 0; i < 600; i++) {
    docs.push({
      name: `m${i}`,
      identifier: `CNP${String(i).padStart(7, '0')}`,
      standard_inchi_key: random() < 0.05 ? null : `KEY${Math.floor(random() * 400)}-X`,
      active: random() < 0.9,
      annotation_level: Math.floor(random() * 5),
      status: random() < 0.8 ? 'APPROVED' : 'DRAFT',
      organism_ids: random() < 0.3 ? [] : [Math.floor(random() * 30), Math.floor(random() * 30)],
      collection_ids: [Math.floor(random() * 3)],
      properties:
        random() < 0.05
          ? null
          : {
              heavy_atom_count: Math.floor(random() * 40),
              molecular_weight: Math.round(random() * 80000) / 100,
              alogp: random() < 0.1 ? undefined : Math.round((random() * 10 - 3) * 100) / 100,
              contains_sugar: random() < 0.3,
              chemical_class: random() < 0.2 ? null : classes[Math.floor(random() * classes.length)],
              molecular_formula: `C${Math.floor(random() * 20)}H${Math.floor(random() * 30)}O${Math.floor(random() * 5)}`,
            },
    });
  }
  await s.insertMany('molecules', docs);
  const all = await s.find('molecules', {});
  const filters: Filter[] = [
    { 'properties.heavy_atom_count': { $gte: 10, $lte: 20 } },
    { 'properties.heavy_atom_count': 7 },
    { 'properties.heavy_atom_count': { $in: [3, 5, 8] } },
    { 'properties.contains_sugar': true, 'properties.molecular_weight': { $gt: 300 } },
    { 'properties.chemical_class': { $in: ['Prenol lipids', 'Flavonoids'] }, active: true },
    { $or: [{ 'properties.heavy_atom_count': { $gte: 4, $lte: 6 }, 'properties.contains_sugar': true }, { 'properties.molecular_weight': { $gte: 100, $lte: 200 } }] },
    { $and: [{ 'properties.alogp': { $lt: 0 } }, { 'properties.alogp': { $gte: -2 } }, { active: false }] },
    { organism_ids: { $in: [1, 2, 3] }, 'properties.heavy_atom_count': { $gt: 30 } },
    { organism_ids: 4 },
    { collection_ids: 1, status: 'DRAFT' },
    { standard_inchi_key: { $gte: 'KEY1', $lt: 'KEY2' } },
    { 'properties.molecular_formula': (all.find((d) => d.properties)!.properties as Record<string, string>).molecular_formula },
    { 'properties.heavy_atom_count': { $gte: 10, $ne: 12 } },
    { $or: [{ 'properties.alogp': { $gt: 5 } }, { name: { $regex: /^m1/ } }] },
    { 'properties.heavy_atom_count': { $in: [] } },
    { active: true, annotation_level: { $gte: 3 }, 'properties.chemical_class': 'Flavonoids' },
  ];
  for (const f of filters) {
    const expected = all.filter((d) => nedbMatch(d, f)).map((d) => d.id).sort((a, b) => a - b);
    // Without a sort the order is the store's (id order when planned): compared as sets.
    const got = (await s.find('molecules', f)).map((d) => d.id).sort((a, b) => a - b);
    t.same(got, expected, `find ${JSON.stringify(f, (_k, v) => (v instanceof RegExp ? String(v) : v))}: ${expected.length} documents`);
    t.equal(await s.count('molecules', f), expected.length, 'count agrees');
    const sort = [{ field: 'active', dir: -1 as const, nulls: 'last' as const }, { field: 'annotation_level', dir: -1 as const, nulls: 'last' as const }, { field: 'id', dir: 1 as const, nulls: 'last' as const }];
    const page = await s.find('molecules', f, { sort, skip: 2, limit: 5, fields: ['active', 'properties.heavy_atom_count'] });
    const ref = all
      .filter((d) => nedbMatch(d, f))
      .sort((a, b) => Number(b.active) - Number(a.active) || (b.annotation_level as number) - (a.annotation_level as number) || a.id - b.id)
      .slice(2, 7);
    t.same(page.map((d) => d.id), ref.map((d) => d.id), 'a sorted page agrees');
    for (const [i, d] of page.entries()) {
      const hac = (ref[i].properties as Record<string, unknown> | null)?.heavy_atom_count;
      t.same(d, { id: ref[i].id, active: ref[i].active, ...(hac === undefined ? {} : { properties: { heavy_atom_count: hac } }) }, 'projected like nedb');
    }
  }
  // A write drops the columns: the next query sees it.
  await s.update('molecules', 1, { properties: { heavy_atom_count: 999 } });
  t.same((await s.find('molecules', { 'properties.heavy_atom_count': 999 })).map((d: Doc) => d.id), [1]);
  t.same((await s.distinct('molecules', 'properties.chemical_class', {})).sort(), [...classes].sort(), 'distinct values from the column');
  const planned = await s.find('molecules', { 'properties.heavy_atom_count': 999 });
  (planned[0].properties as Record<string, unknown>).heavy_atom_count = 1;
  t.same((await s.find('molecules', { 'properties.heavy_atom_count': 999 })).length, 1, 'answers are copies, not live documents');
});

t.test('compiled filters decide as nedb\'s matcher, lists, nulls and mixed types included', async (t) => {
  const { compileFilter } = await import('../../api/catalog/store/embedded-match.ts');
  const random = rng(11);
  const values = [null, 0, 1, 2.5, -3, 'a', 'b', 'abc', '', true, false, [1, 2], ['a', 'b'], [], { x: 1 }, [{ c: 1 }], new Date(0)];
  const pickValue = () => values[Math.floor(random() * values.length)];
  const docs: Doc[] = [];
  for (let i = 0; i < 400; i++) {
    const d: Record<string, unknown> = { id: i };
    if (random() < 0.8) d.a = pickValue();
    if (random() < 0.7) d.b = random() < 0.3 ? pickValue() : { c: pickValue() };
    docs.push(d as Doc);
  }
  const filters: Filter[] = [
    { a: 1 }, { a: 'a' }, { a: null }, { a: true }, { 'b.c': 1 }, { 'b.c': null },
    { a: { $in: [1, 'a', null] } }, { a: { $nin: [1, 'b'] } }, { a: { $ne: 1 } }, { a: { $ne: null } },
    { a: { $gt: 0 } }, { a: { $gte: 'a', $lt: 'b' } }, { 'b.c': { $lte: 1 } }, { a: { $exists: true } }, { 'b.c': { $exists: false } },
    { a: /^a/ }, { a: { $regex: /b/ } }, { $or: [{ a: 1 }, { 'b.c': 'a' }] }, { $and: [{ a: { $gte: 0 } }, { a: { $lt: 2 } }] },
    { $not: { a: 1 } }, { a: 1, 'b.c': { $ne: 2.5 } }, { 'a.length': 3 },
  ];
  for (const f of filters) {
    const p = compileFilter(f, nedbMatch);
    t.ok(p, `${JSON.stringify(f, (_k, v) => (v instanceof RegExp ? String(v) : v))}: compiled`);
    const differ = docs.filter((d) => p!(d) !== nedbMatch(d, f));
    t.same(differ, [], 'the same decision for every document');
  }
  t.equal(compileFilter({ a: { $size: 2 } }, nedbMatch), null, 'an operator it does not know: not compiled');
});
