/**
 * `/api/properties` (issue "COCONUT drop-in" §3): COCONUT's PropertiesResource, read-only here.
 * Detail and search for every role with COCONUT's fields (plus `id` and `molecule_id`), filters,
 * sorts and selects on the embedded records, `molecule_id` = the containing molecule's id, and
 * mutate/delete refused with Lomkit's 403 (COCONUT lets any token write them). Both store kinds.
 */
import t from 'tap';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

// COCONUT's PropertiesResource::fields(), in its order (Steinbeck-Lab/coconut app/Rest/Resources/PropertiesResource.php)
const COCONUT_FIELDS = [
  'total_atom_count', 'heavy_atom_count', 'molecular_weight', 'exact_molecular_weight', 'molecular_formula', 'alogp',
  'topological_polar_surface_area', 'rotatable_bond_count', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors',
  'hydrogen_bond_acceptors_lipinski', 'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations', 'aromatic_rings_count',
  'qed_drug_likeliness', 'formal_charge', 'fractioncsp3', 'number_of_minimal_rings', 'van_der_walls_volume', 'contains_sugar',
  'contains_ring_sugars', 'contains_linear_sugars', 'murcko_framework', 'np_likeness', 'chemical_class', 'chemical_sub_class',
  'chemical_super_class', 'direct_parent_classification', 'np_classifier_pathway', 'np_classifier_superclass', 'np_classifier_class',
  'np_classifier_is_glycoside',
];

for (const kind of storeKinds()) {
  t.test(`/api/properties on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { mols } = await seed(b.store);
    // seed: molecules 0,1,2,4,5 have properties (mw 194.19, 200.5, 180.16, 350, 90); molecule 3 has none
    const withProps = [0, 1, 2, 4, 5].map((i) => mols[i].id);
    const propId = async (mol: number) => ((await b.store.findByIds('molecules', [mol]))[0].properties as { id: number }).id;
    const search = (body: object, role: 'reader' | 'curator' | 'admin' | null = 'reader') => b.call('POST', '/api/properties/search', { search: body }, role);

    t.test('detail: COCONUT\'s fields after id and molecule_id, no actions, no write rules', async (t) => {
      for (const role of ['reader', 'curator', 'admin'] as const) {
        const d = await b.call('GET', '/api/properties', undefined, role);
        t.equal(d.status, 200, role);
        t.same(d.json.data.fields, ['id', 'molecule_id', ...COCONUT_FIELDS], `${role}: fields`);
        t.same(d.json.data.actions, [], `${role}: no actions`);
        t.same(d.json.data.rules.all, [], `${role}: nothing to write here`);
        t.same(d.json.data.limits, [10, 25, 50]);
      }
      t.equal((await b.call('GET', '/api/properties', undefined, null)).status, 401);
    });

    t.test('search: one record per molecule with properties, molecule_id its molecule', async (t) => {
      const all = await search({ sorts: [{ field: 'molecule_id' }], limit: 50 });
      t.equal(all.status, 200);
      t.equal(all.json.total, 5, 'the molecule without properties has no record');
      t.same(all.json.data.map((r: any) => r.molecule_id), withProps);
      for (const r of all.json.data) t.equal(r.id, await propId(r.molecule_id), 'id is the embedded record\'s own id');
      t.same(Object.keys(all.json.data[0]), ['id', 'molecule_id', ...COCONUT_FIELDS], 'every field, in order');
      t.match(all.json.data[0], { molecular_weight: 194.19, molecular_formula: 'C0H0', heavy_atom_count: 5, contains_sugar: true, alogp: null });
      t.same((await search({}, 'curator')).json.data.map((r: any) => r.molecule_id), [...withProps].sort((x, y) => y - x).map((m) => m), 'default order: id desc');
      t.equal((await search({}, null)).status, 401);
    });

    t.test('filters, sorts and selects on the record and on molecule_id', async (t) => {
      const heavy = await search({ filters: [{ field: 'molecular_weight', operator: '>', value: 190 }], sorts: [{ field: 'molecular_weight', direction: 'desc' }], selects: [{ field: 'molecule_id' }, { field: 'molecular_weight' }] });
      t.same(heavy.json.data, [
        { molecule_id: mols[4].id, molecular_weight: 350 },
        { molecule_id: mols[1].id, molecular_weight: 200.5 },
        { molecule_id: mols[0].id, molecular_weight: 194.19 },
      ]);
      const one = await search({ filters: [{ field: 'molecule_id', value: mols[2].id }] });
      t.same(one.json.data.map((r: any) => r.molecular_weight), [180.16]);
      t.same((await search({ filters: [{ field: 'molecule_id', value: mols[3].id }] })).json.data, [], 'no record for the molecule without properties');
      t.same((await search({ filters: [{ field: 'molecule_id', operator: 'in', value: [mols[0].id, mols[5].id] }] })).json.data.map((r: any) => r.molecular_weight).sort(), [194.19, 90].sort());
      t.same((await search({ filters: [{ field: 'molecular_formula', operator: 'like', value: 'C4%' }] })).json.data.map((r: any) => r.molecule_id), [mols[4].id]);
      const paged = await search({ sorts: [{ field: 'molecular_weight' }], limit: 10, page: 1 });
      t.same(paged.json.data.map((r: any) => r.molecular_weight), [90, 180.16, 194.19, 200.5, 350]);
      t.match(paged.json, { current_page: 1, per_page: 10, total: 5, last_page: 1, from: 1, to: 5 });
      // the same field read through a molecule search
      const viaMol = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'properties.molecule_id', value: mols[1].id }], includes: [{ relation: 'properties', selects: [{ field: 'molecule_id' }, { field: 'id' }] }] } }, 'reader');
      t.same(viaMol.json.data.map((m: any) => m.id), [mols[1].id]);
      t.same(viaMol.json.data[0].properties, { molecule_id: mols[1].id, id: await propId(mols[1].id) }, 'an include fills molecule_id too');
    });

    t.test('bad searches are 422 with Lomkit\'s shape', async (t) => {
      const cases: [object, string][] = [
        [{ filters: [{ field: 'nope', value: 1 }] }, 'search.filters.0.field'],
        [{ filters: [{ field: 'molecular_weight', value: { $gt: 1 } }] }, 'search.filters.0.value'],
        [{ filters: [{ field: 'molecular_weight', value: { $where: 'sleep(1)' } }] }, 'search.filters.0.value'],
        [{ filters: [{ field: 'molecular_weight', value: 'heavy' }] }, 'search.filters.0.value'],
        [{ sorts: [{ field: 'canonical_smiles' }] }, 'search.sorts.0.field'],
        [{ includes: [{ relation: 'molecule' }] }, 'search.includes.0.relation'],
        [{ limit: 7 }, 'search.limit'],
      ];
      for (const [body, key] of cases) {
        const r = await search(body);
        t.equal(r.status, 422, key);
        t.ok(r.json.errors?.[key], `${JSON.stringify(body)} → ${key}`);
        t.type(r.json.message, 'string');
      }
    });

    t.test('writes are refused on this route (403, Lomkit\'s message), for every role', async (t) => {
      for (const role of ['reader', 'curator', 'admin'] as const) {
        const m = await b.call('POST', '/api/properties/mutate', { mutate: [{ operation: 'update', key: await propId(mols[0].id), attributes: { alogp: 9 } }] }, role);
        t.same([m.status, m.json], [403, { message: 'This action is unauthorized.' }], `${role}: mutate`);
        const d = await b.call('DELETE', '/api/properties', { resources: [await propId(mols[0].id)] }, role);
        t.same([d.status, d.json], [403, { message: 'This action is unauthorized.' }], `${role}: delete`);
      }
      t.equal((await b.call('POST', '/api/properties/mutate', { mutate: [] }, null)).status, 401, '401 first');
      t.equal((await b.call('POST', '/api/properties/actions/recompute-properties', {}, 'admin')).status, 404, 'no actions');
      t.equal(((await b.store.findByIds('molecules', [mols[0].id]))[0].properties as any).alogp, undefined, 'nothing written');
      // written through the molecule, as before
      const w = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: mols[0].id, relations: { properties: { operation: 'update', attributes: { alogp: 2.345 } } } }] }, 'curator');
      t.equal(w.status, 200);
      t.equal((await search({ filters: [{ field: 'molecule_id', value: mols[0].id }] })).json.data[0].alogp, 2.35);
      const ro = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: mols[0].id, relations: { properties: { operation: 'update', attributes: { molecule_id: 3 } } } }] }, 'curator');
      t.equal(ro.status, 422, 'molecule_id is not writable');
      t.ok(ro.json.errors['mutate.0.relations.properties.attributes.molecule_id']);
    });
  });
}
