/** Search contract: operators, and/or, nesting, relations, sorts, selects, includes, aggregates, gates, paging. */
import t from 'tap';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds({ mingo: true })) {
  t.test(`search on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    await seed(b.store);
    const ids = async (search: unknown, res = 'molecules') => {
      const r = await b.call('POST', `/api/${res}/search`, { search }, 'reader');
      if (r.status !== 200) t.fail(`status ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
      return (r.json.data as { id: number }[]).map((d) => d.id);
    };
    const f = (field: string, operator: string, value?: unknown, extra: object = {}) => ({ filters: [{ field, operator, value, ...extra }] });

    t.test('default order id desc, paginator shape', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', {}, 'reader');
      t.same(Object.keys(r.json), ['current_page', 'data', 'from', 'last_page', 'per_page', 'to', 'total', 'meta']);
      t.same(r.json.data.map((d: any) => d.id), [6, 5, 4, 3, 2, 1]);
      t.match(r.json, { current_page: 1, from: 1, to: 6, total: 6, per_page: 50, last_page: 1, meta: [] });
      t.same(Object.keys(r.json.data[0]), ['id', 'standard_inchi', 'standard_inchi_key', 'canonical_smiles', 'sugar_free_smiles', 'identifier', 'name', 'cas', 'synonyms', 'iupac_name', 'murko_framework', 'structural_comments', 'name_trust_level', 'annotation_level', 'variants_count', 'organism_count', 'status', 'active', 'has_variants', 'has_stereo', 'is_tautomer', 'is_parent', 'is_placeholder']);
      t.equal(r.json.data.find((d: any) => d.id === 1).murko_framework, 'c1ncc2nc[nH]c2n1', 'murko_framework maps to murcko_framework');
    });

    t.test('pagination', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', { search: { limit: 10, page: 1 } }, 'reader');
      t.match(r.json, { per_page: 10, from: 1, to: 6, last_page: 1 });
      const past = await b.call('POST', '/api/molecules/search', { search: { limit: 10, page: 3 } }, 'reader');
      t.match(past.json, { current_page: 3, data: [], from: null, to: null, total: 6, last_page: 1 });
      const zero = await b.call('POST', '/api/molecules/search', { search: { page: 0 } }, 'reader');
      t.equal(zero.json.current_page, 1);
    });

    t.test('every operator', async (t) => {
      t.same(await ids(f('name', '=', 'caffeine')), [1]);
      t.same(await ids(f('name', '!=', 'caffeine')), [6, 5, 3, 2], '!= excludes null');
      t.same(await ids(f('annotation_level', '>', 3)), [5, 3]);
      t.same(await ids(f('annotation_level', '>=', 3)), [5, 3, 1]);
      t.same(await ids(f('annotation_level', '<', 2)), [6, 2]);
      t.same(await ids(f('annotation_level', '<=', 2)), [6, 4, 2]);
      t.same(await ids(f('name', 'like', 'caff%')), [1], 'like is case-sensitive');
      t.same(await ids(f('name', 'like', '%affeine%')), [2, 1]);
      t.same(await ids(f('name', 'like', 'aspiri_')), [3]);
      t.same(await ids(f('name', 'not like', '%affeine%')), [6, 5, 3], 'not like excludes null');
      t.same(await ids(f('name', 'ilike', 'caff%')), [2, 1], 'ilike ignores case (COCONUT #806)');
      t.same(await ids(f('name', 'ilike', '%AFFEINE_B')), [2]);
      t.same(await ids(f('name', 'ilike', 'ASPIRIN')), [3], 'no wildcard: the whole value, any case');
      t.same(await ids(f('name', 'ilike', 'A.C*(X)')), [5], 'regex metacharacters stay literal');
      t.same(await ids(f('cas', 'ilike', '58-%')), [1], 'ilike on a list matches any element');
      t.same(await ids(f('status', 'ilike', 'approved')), [5, 1]);
      t.same(await ids(f('annotation_level', 'ilike', '3')), [1], 'ilike on a number compares its text');
      t.same(await ids(f('active', 'ilike', 'TRUE')), [6, 5, 1], 'ilike on a boolean: PostgreSQL\'s text, any case');
      t.same(await ids(f('organisms.name', 'ilike', '%NIGER')), await ids(f('organisms.name', 'like', '%niger')), 'through a relation');
      t.same(await ids(f('status', 'in', ['DRAFT', 'REVOKED'])), [6, 4, 2]);
      t.same(await ids(f('status', 'in', [])), []);
      t.same(await ids(f('name', 'not in', ['caffeine', 'aspirin'])), [6, 5, 2], 'not in excludes null');
      t.same(await ids(f('name', '=')), [4], 'no value = IS NULL');
      t.same(await ids(f('name', '!=', null)), [6, 5, 3, 2, 1], '!= null = IS NOT NULL');
      t.same(await ids(f('annotation_level', '=', '3')), [1], 'string coerced to the integer field');
      t.same(await ids(f('active', '=', 'true')), [6, 5, 1], 'boolean coercion');
      t.same(await ids(f('cas', '=', '58-08-2')), [1], 'cas list contains');
      t.same(await ids(f('id', 'in', [1, 2])), [2, 1]);
    });

    t.test('like escapes: SQL wildcards only', async (t) => {
      t.same(await ids(f('name', 'like', 'a.c*(x)')), [5], 'regex metacharacters are literal');
      t.same(await ids(f('name', 'like', 'a_c%')), [5]);
      t.same(await ids(f('name', 'like', '50\\%\\_off')), [6], 'backslash escapes % and _');
      t.same(await ids(f('name', 'like', '.*')), []);
      t.same(await ids(f('name', 'like', '%a%a%a%a%a%a%a%a%a%a%a%a%b')), [], 'pathological pattern answers');
    });

    t.test('and/or precedence and nesting', async (t) => {
      // A OR (B AND C): name=aspirin OR (status=APPROVED AND active=true)
      const s1 = { filters: [{ field: 'name', value: 'aspirin' }, { field: 'status', value: 'APPROVED', type: 'or' }, { field: 'active', value: true, type: 'and' }] };
      t.same(await ids(s1), [5, 3, 1]);
      // (A OR B) AND C with nesting
      const s2 = { filters: [{ nested: [{ field: 'name', value: 'aspirin' }, { field: 'status', value: 'APPROVED', type: 'or' }] }, { field: 'active', value: true }] };
      t.same(await ids(s2), [5, 1]);
      const s3 = { filters: [{ field: 'name', value: 'caffeine' }, { nested: [{ field: 'annotation_level', operator: '>', value: 4 }], type: 'or' }] };
      t.same(await ids(s3), [3, 1]);
    });

    t.test('relation filters (dot notation)', async (t) => {
      t.same(await ids(f('properties.molecular_weight', '>', 190)), [5, 2, 1]);
      t.same(await ids(f('properties.molecular_formula', 'like', 'C1%')), [2]);
      t.same(await ids(f('organisms.name', 'like', 'Aspergillus%')), [4, 2, 1]);
      t.same(await ids(f('collections.title', '=', 'Demo')), [3, 2]);
      t.same(await ids(f('citations.doi', '=', '10.1/b')), [3]);
      t.same(await ids(f('molecules.name', '=', 'caffeine'), 'organisms'), [2, 1]);
      t.same(await ids(f('molecules.properties.molecular_weight', '>', 199), 'collections'), [2, 1]);
    });

    t.test('sorts with PostgreSQL null order', async (t) => {
      t.same(await ids({ sorts: [{ field: 'name', direction: 'asc' }] }), [6, 2, 5, 3, 1, 4], 'nulls last ascending, byte order');
      t.same(await ids({ sorts: [{ field: 'name', direction: 'desc' }] }), [4, 1, 3, 5, 2, 6], 'nulls first descending');
      t.same(await ids({ sorts: [{ field: 'active', direction: 'desc' }, { field: 'annotation_level' }] }), [6, 1, 5, 2, 4, 3]);
      t.same(await ids({ sorts: [{ field: 'annotation_level' }], limit: 10, page: 1 }), [6, 2, 4, 1, 5, 3]);
    });

    t.test('selects, scopes', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', { search: { selects: [{ field: 'name' }, { field: 'murko_framework' }], filters: [{ field: 'id', value: 1 }] } }, 'reader');
      t.same(r.json.data, [{ name: 'caffeine', murko_framework: 'c1ncc2nc[nH]c2n1' }]);
      t.same(await ids({ scopes: [{ name: 'approved' }] }), [5, 1]);
    });

    t.test('includes with their own filters, sorts and limit', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', {
        search: {
          filters: [{ field: 'id', operator: 'in', value: [1, 4] }],
          includes: [
            { relation: 'properties', selects: [{ field: 'molecular_weight' }] },
            { relation: 'organisms', sorts: [{ field: 'name', direction: 'asc' }], limit: 10 },
            { relation: 'collections', filters: [{ field: 'title', value: 'nope' }] },
          ],
        },
      }, 'reader');
      t.equal(r.status, 200);
      const [m4, m1] = r.json.data;
      t.same(m1.properties, { molecular_weight: 194.19 });
      t.equal(m4.properties, null);
      t.same(m1.organisms.map((o: any) => o.name), ['Aspergillus niger', 'Homo sapiens']);
      t.same(m1.collections, [], 'include filters never drop parents');
      const lim = await b.call('POST', '/api/organisms/search', { search: { filters: [{ field: 'id', value: 1 }], includes: [{ relation: 'molecules', limit: 10, sorts: [{ field: 'id' }], includes: [{ relation: 'properties' }] }] } }, 'reader');
      t.same(lim.json.data[0].molecules.map((m: any) => m.id), [1, 6]);
      t.equal(lim.json.data[0].molecules[0].properties.molecular_weight, 194.19, 'nested include');
      const dotted = await b.call('POST', '/api/collections/search', { search: { filters: [{ field: 'id', value: 2 }], includes: [{ relation: 'molecules.organisms' }] } }, 'reader');
      t.same(dotted.json.data[0].molecules.map((m: any) => m.organisms.length), [0, 1], 'dotted include nests');
    });

    t.test('aggregates', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', {
        search: {
          filters: [{ field: 'id', operator: 'in', value: [1, 4] }],
          selects: [{ field: 'name' }],
          aggregates: [
            { relation: 'organisms', type: 'count' },
            { relation: 'properties', type: 'exists' },
            { relation: 'properties', type: 'max', field: 'molecular_weight' },
            { relation: 'organisms', type: 'count', alias: 'genus_count', filters: [{ field: 'rank', value: 'genus' }] },
          ],
        },
      }, 'reader');
      t.same(r.json.data[1], { name: 'caffeine', organisms_count: 2, properties_exists: true, properties_max_molecular_weight: 194.19, genus_count: 0 });
      t.same(r.json.data[0], { name: null, organisms_count: 1, properties_exists: false, properties_max_molecular_weight: null, genus_count: 1 });
      const c = await b.call('POST', '/api/collections/search', { search: { sorts: [{ field: 'id' }], aggregates: [{ relation: 'molecules', type: 'count' }, { relation: 'molecules', type: 'avg', field: 'annotation_level' }, { relation: 'molecules', type: 'sum', field: 'annotation_level' }, { relation: 'molecules', type: 'min', field: 'name' }] } }, 'reader');
      t.match(c.json.data[0], { molecules_count: 2, molecules_avg_annotation_level: 2, molecules_sum_annotation_level: 4, molecules_min_name: 'Caffeine_b' });
    });

    t.test('like on numbers and booleans compares their text, as PostgreSQL col::text LIKE', async (t) => {
      t.same(await ids(f('annotation_level', 'like', '%')), [6, 5, 4, 3, 2, 1]);
      t.same(await ids(f('annotation_level', 'like', '_')), [6, 5, 4, 3, 2, 1]);
      t.same(await ids(f('annotation_level', 'not like', '3')), [6, 5, 4, 3, 2]);
      t.same(await ids(f('active', 'like', 'tr%')), [6, 5, 1]);
      t.same(await ids(f('properties.molecular_weight', 'like', '19%')), [1], '194.19');
      t.same(await ids(f('properties.molecular_weight', 'like', '350')), [5]);
      t.same(await ids(f('properties.molecular_weight', 'not like', '%.%')), [6, 5], 'whole numbers print without a point; no properties never match');
    });

    t.test('empty lists: IN matches nothing, NOT IN everything (Laravel 0 = 1 / 1 = 1)', async (t) => {
      t.same(await ids(f('name', 'in', [])), []);
      t.same(await ids(f('name', 'not in', [])), [6, 5, 4, 3, 2, 1], 'nulls included');
    });

    t.test('relation filters are "there exists a related row"', async (t) => {
      // molecule 6 has only Homo sapiens; 3 and 5 have no organism at all
      t.same(await ids(f('organisms.name', '!=', 'Homo sapiens')), [4, 2, 1]);
      t.same(await ids(f('organisms.rank', '=')), [], 'IS NULL on a related field needs a related row');
      t.same(await ids(f('properties.molecular_weight', '=')), [], 'likewise for properties');
      t.same(await ids({ filters: [{ field: 'organisms.name', value: 'Homo sapiens' }, { field: 'collections.title', value: 'LOTUS' }] }), [1]);
    });

    t.test('the first filter\'s type has no effect; scopes AND with filters and each other', async (t) => {
      t.same(await ids({ filters: [{ field: 'name', value: 'aspirin', type: 'or' }, { field: 'active', value: false }] }), [3]);
      t.same(await ids({ scopes: [{ name: 'active' }, { name: 'draft' }] }), [6]);
      t.same(await ids({ scopes: [{ name: 'approved' }], filters: [{ field: 'name', value: 'caffeine' }, { field: 'name', value: 'aspirin', type: 'or' }] }), [1], 'the filters are one parenthesised group');
    });

    t.test('sorts on the murko_framework alias and explicit id', async (t) => {
      t.same(await ids({ sorts: [{ field: 'murko_framework', direction: 'asc' }, { field: 'id', direction: 'desc' }] }), [3, 1, 6, 5, 4, 2]);
      t.same(await ids({ sorts: [{ field: 'id', direction: 'asc' }] }), [1, 2, 3, 4, 5, 6]);
    });

    t.test('pagination meta over more rows', async (t) => {
      await b.store.insertMany('organisms', Array.from({ length: 27 }, (_, i) => ({ name: `Extra ${String(i).padStart(2, '0')}`, rank: null, molecule_count: 0 })));
      const page = async (search: object) => (await b.call('POST', '/api/organisms/search', { search }, 'reader')).json;
      const p2 = await page({ limit: 10, page: 2 });
      t.match(p2, { current_page: 2, from: 11, to: 20, last_page: 3, per_page: 10, total: 30, meta: [] });
      t.same(p2.data.map((o: any) => o.id), [20, 19, 18, 17, 16, 15, 14, 13, 12, 11], 'id desc by default');
      t.match(await page({ limit: 25, page: 2 }), { from: 26, to: 30, last_page: 2, per_page: 25 });
      t.match(await page({ limit: 10, page: 4 }), { current_page: 4, data: [], from: null, to: null, total: 30, last_page: 3 });
      t.match(await page({ filters: [{ field: 'name', operator: 'like', value: 'Extra 1%' }], limit: 10 }), { total: 10, last_page: 1, from: 1, to: 10 }, 'total counts the filtered rows');
      t.match(await page({ filters: [{ field: 'name', value: 'nobody' }] }), { total: 0, last_page: 1, from: null, to: null, data: [] });
      // molecule 5 gets 27 organisms: an include limit applies per parent
      await b.store.link(5, 'organism_ids', Array.from({ length: 27 }, (_, i) => 4 + i));
      const inc = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', operator: 'in', value: [1, 5] }], includes: [{ relation: 'organisms', limit: 10 }] } }, 'reader');
      t.same(inc.json.data.map((m: any) => m.organisms.length), [10, 2]);
      t.same(inc.json.data[0].organisms.slice(0, 3).map((o: any) => o.id), [30, 29, 28], 'included rows in the related default order, id desc');
      const all = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', value: 5 }], includes: [{ relation: 'organisms' }] } }, 'reader');
      t.equal(all.json.data[0].organisms.length, 27, 'without a limit an include is not paginated');
      await b.store.unlink(5, 'organism_ids', Array.from({ length: 27 }, (_, i) => 4 + i));
      await b.store.remove('organisms', Array.from({ length: 27 }, (_, i) => 4 + i));
    });

    t.test('include options: own aggregates, gates only when the include asks', async (t) => {
      const r = await b.call('POST', '/api/organisms/search', {
        search: {
          filters: [{ field: 'id', value: 1 }],
          gates: ['view'],
          includes: [{ relation: 'molecules', selects: [{ field: 'name' }], aggregates: [{ relation: 'collections', type: 'count' }] }],
        },
      }, 'curator');
      t.same(r.json.data[0].gates, { authorized_to_view: true });
      t.same(r.json.data[0].molecules, [{ name: '50%_off', collections_count: 0 }, { name: 'caffeine', collections_count: 1 }], 'no gates in the included rows');
      const g = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', value: 1 }], includes: [{ relation: 'organisms', gates: ['update'], selects: [{ field: 'id' }] }] } }, 'curator');
      t.same(g.json.data[0].organisms, [{ id: 2, gates: { authorized_to_update: true } }, { id: 1, gates: { authorized_to_update: true } }]);
      t.notOk('gates' in g.json.data[0], 'the parent did not ask');
    });

    t.test('gates per record and in meta', async (t) => {
      const s = { search: { limit: 10, gates: ['create', 'update', 'delete', 'view'], filters: [{ field: 'id', value: 1 }] } };
      const reader = await b.call('POST', '/api/molecules/search', s, 'reader');
      t.same(reader.json.data[0].gates, { authorized_to_update: false, authorized_to_delete: false, authorized_to_view: true });
      t.same(reader.json.meta, { gates: { authorized_to_create: false } });
      const curator = await b.call('POST', '/api/molecules/search', s, 'curator');
      t.same(curator.json.data[0].gates, { authorized_to_update: true, authorized_to_delete: false, authorized_to_view: true });
      const admin = await b.call('POST', '/api/molecules/search', s, 'admin');
      t.same(admin.json.data[0].gates, { authorized_to_update: true, authorized_to_delete: true, authorized_to_view: true });
      t.same(admin.json.meta, { gates: { authorized_to_create: true } });
    });
  });
}
