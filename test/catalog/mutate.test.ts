/**
 * Mutate contract (docs/spec/catalog-api.md §2.6): create, update, every relation operation from both sides, nested
 * relation operations, derived chemistry (fake derivation, see helper.ts), read-only fields,
 * molecule_count upkeep, all-or-nothing. Runs on every store kind.
 */
import t from 'tap';
import Fastify from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import { build, fakeDerive, makeStore, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) {
  t.test(`mutate on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { orgs, cols, cits } = await seed(b.store);
    const mol = async (id: number) => (await b.store.findByIds('molecules', [id]))[0];
    const org = async (id: number) => (await b.store.findByIds('organisms', [id]))[0];
    const mutate = (res: string, items: unknown[], role: 'curator' | 'admin' | 'reader' = 'curator') => b.call('POST', `/api/${res}/mutate`, { mutate: items }, role);

    t.test('create with derived chemistry, identifier once, properties', async (t) => {
      const r = await mutate('molecules', [{ operation: 'create', attributes: { name: 'benzene', canonical_smiles: 'c1ccccc1', murko_framework: 'ignored' } }]);
      t.equal(r.status, 200);
      t.same(Object.keys(r.json), ['created', 'updated']);
      const [id] = r.json.created;
      const m = await mol(id);
      t.match(m, { name: 'benzene', status: 'DRAFT', active: false, murcko_framework: 'c1ccccc1', standard_inchi: 'InChI=1S/fake/c1ccccc1', has_stereo: false });
      t.match(m.standard_inchi_key, /^[A-Z]{14}-[A-Z]{10}-N$/);
      t.match(m.identifier, /^CNP\d{7}$/);
      t.match(m.properties, { heavy_atom_count: 6, molecular_formula: 'C6', id: Number });
      const again = await mutate('molecules', [{ operation: 'update', key: id, attributes: { canonical_smiles: 'c1ccccc1C' } }]);
      t.same(again.json, { created: [], updated: [id] });
      t.equal((await mol(id)).identifier, m.identifier, 'identifier assigned once');
      t.equal(((await mol(id)).properties as any).heavy_atom_count, 7, 'properties re-derived');
      t.equal(((await mol(id)).properties as any).id, (m.properties as any).id, 'properties record keeps its id');
      const same = await mutate('molecules', [{ operation: 'update', key: id, attributes: { canonical_smiles: 'c1ccccc1C', name: 'toluene' } }]);
      t.equal(same.status, 200, 'a molecule may keep its own structure');
    });

    t.test('molecule without a structure; murko_framework and cas written as exposed', async (t) => {
      const r = await mutate('molecules', [{ operation: 'create', attributes: { name: 'no structure', murko_framework: 'C1CC1', cas: '50-00-0' } }]);
      const m = await mol(r.json.created[0]);
      t.match(m, { murcko_framework: 'C1CC1', cas: ['50-00-0'], identifier: undefined, properties: null, status: 'DRAFT' });
      const s = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'murko_framework', value: 'C1CC1' }], selects: [{ field: 'murko_framework' }, { field: 'cas' }] } }, 'reader');
      t.same(s.json.data, [{ murko_framework: 'C1CC1', cas: ['50-00-0'] }]);
    });

    t.test('duplicate InChIKey and unparsable structure are 422', async (t) => {
      const dup = await mutate('molecules', [{ operation: 'create', attributes: { canonical_smiles: 'c1ccccc1C' } }]);
      t.equal(dup.status, 422);
      t.match(dup.json.errors['mutate.0.attributes.canonical_smiles'][0], /^The structure is already in the catalog as molecule CNP\d{7} \(id \d+, InChIKey [A-Z-]+\)\.$/);
      const twice = await mutate('molecules', [{ operation: 'create', attributes: { canonical_smiles: 'CN' } }, { operation: 'create', attributes: { canonical_smiles: 'CN' } }]);
      t.match(twice.json.errors['mutate.1.attributes.canonical_smiles'][0], /duplicates mutate\.0/);
      const bad = await mutate('molecules', [{ operation: 'create', attributes: { canonical_smiles: 'C1CC?' } }]);
      t.equal(bad.status, 422);
      t.same(bad.json, { message: 'Error reading smiles, check again: C1CC?', errors: { 'mutate.0.attributes.canonical_smiles': ['Error reading smiles, check again: C1CC?'] } });
      const viaRelation = await mutate('organisms', [{ operation: 'update', key: orgs[0].id, relations: { molecules: [{ operation: 'create', attributes: { canonical_smiles: 'c1ccccc1C' } }] } }]);
      t.match(viaRelation.json.errors['mutate.0.relations.molecules.0.attributes.canonical_smiles'][0], /already in the catalog/, 'molecules created through a relation are checked too');
      const many = await mutate('organisms', [{ operation: 'update', key: orgs[0].id, relations: { molecules: [{ operation: 'update', key: [1, 2], attributes: { canonical_smiles: 'CCCCN' } }] } }]);
      t.same(many.json.errors, { 'mutate.0.relations.molecules.0.attributes.canonical_smiles': ['The mutate.0.relations.molecules.0.attributes.canonical_smiles field cannot set one structure on 2 molecules.'] });
      t.equal(await b.store.count('molecules', { canonical_smiles: 'CN' }), 0, 'nothing written');
    });

    t.test('server-written fields are refused', async (t) => {
      const r = await mutate('molecules', [{ operation: 'update', key: 1, attributes: { identifier: 'CNP9999999', standard_inchi_key: 'X', standard_inchi: 'InChI=1S/x', name: 'ok' } }]);
      t.equal(r.status, 422);
      t.same(r.json.errors, {
        'mutate.0.attributes.identifier': ['The mutate.0.attributes.identifier field is prohibited.'],
        'mutate.0.attributes.standard_inchi_key': ['The mutate.0.attributes.standard_inchi_key field is prohibited.'],
        'mutate.0.attributes.standard_inchi': ['The mutate.0.attributes.standard_inchi field is prohibited.'],
      });
      const o = await mutate('organisms', [{ operation: 'update', key: orgs[0].id, attributes: { molecule_count: 99 } }]);
      t.same(o.json.errors, { 'mutate.0.attributes.molecule_count': ['The mutate.0.attributes.molecule_count field is prohibited.'] });
      t.equal((await mol(1)).name, 'caffeine');
    });

    t.test('decimal(8,2) properties keep 2 places, floats and integers are kept', async (t) => {
      const r = await mutate('molecules', [{ operation: 'update', key: 5, relations: { properties: { operation: 'update', attributes: { alogp: 1.234, fractioncsp3: 0.4567, exact_molecular_weight: 194.08038, molecular_weight: 194.194, heavy_atom_count: 14 } } } }]);
      t.equal(r.status, 200, JSON.stringify(r.json));
      t.match((await mol(5)).properties, { alogp: 1.23, fractioncsp3: 0.46, exact_molecular_weight: 194.08038, molecular_weight: 194.194, heavy_atom_count: 14 });
      const bad = await mutate('molecules', [{ operation: 'update', key: 5, relations: { properties: { operation: 'update', attributes: { heavy_atom_count: 1.5, alogp: 'x' } } } }]);
      t.same(bad.json.errors, {
        'mutate.0.relations.properties.attributes.heavy_atom_count': ['The mutate.0.relations.properties.attributes.heavy_atom_count field must be an integer.'],
        'mutate.0.relations.properties.attributes.alogp': ['The mutate.0.relations.properties.attributes.alogp field must be a number.'],
      });
    });

    t.test('relation operations and molecule_count upkeep', async (t) => {
      const created = await mutate('molecules', [{
        operation: 'create',
        attributes: { name: 'rel-test' },
        relations: {
          organisms: [{ operation: 'attach', key: [orgs[0].id, orgs[1].id] }, { operation: 'create', attributes: { name: 'New org', rank: 'species' } }],
          collections: [{ operation: 'attach', key: cols[0].id }],
          citations: [{ operation: 'attach', key: cits[1].id }],
          properties: { operation: 'create', attributes: { molecular_weight: 12.01, molecular_formula: 'C' } },
        },
      }]);
      t.equal(created.status, 200, JSON.stringify(created.json));
      t.same(created.json.updated, []);
      const id = created.json.created[0];
      let m = await mol(id);
      t.equal((m.organism_ids as number[]).length, 3, 'attach two, create one');
      t.same(m.collection_ids, [cols[0].id]);
      t.same(m.citation_ids, [cits[1].id]);
      t.match(m.properties, { molecular_weight: 12.01, molecular_formula: 'C' });
      const newOrg = (m.organism_ids as number[]).find((x) => ![orgs[0].id, orgs[1].id].includes(x))!;
      t.match(await org(newOrg), { name: 'New org', rank: 'species', molecule_count: 1 });
      // seed links: organism 1 ← molecules 1, 6; organism 2 ← 1, 2; collection 1 ← 1, 2
      t.equal((await org(orgs[0].id)).molecule_count, 3, 'count kept up to date on attach');
      t.equal((await b.store.findByIds('collections', [cols[0].id]))[0].molecule_count, 3);

      const upd = (relations: object) => mutate('molecules', [{ operation: 'update', key: id, relations }]);
      t.same((await upd({ organisms: [{ operation: 'detach', key: orgs[0].id }] })).json, { created: [], updated: [id] });
      t.notOk(((await mol(id)).organism_ids as number[]).includes(orgs[0].id), 'detach');
      t.equal((await org(orgs[0].id)).molecule_count, 2, 'count kept up to date on detach');
      await upd({ organisms: [{ operation: 'toggle', key: [orgs[0].id, orgs[1].id] }] });
      m = await mol(id);
      t.ok((m.organism_ids as number[]).includes(orgs[0].id), 'toggle links what is absent');
      t.notOk((m.organism_ids as number[]).includes(orgs[1].id), 'toggle unlinks what is present');
      t.same([(await org(orgs[0].id)).molecule_count, (await org(orgs[1].id)).molecule_count], [3, 2]);
      await upd({ organisms: [{ operation: 'sync', key: [orgs[2].id] }] });
      t.same((await mol(id)).organism_ids, [orgs[2].id], 'sync unlinks all others');
      t.same([(await org(orgs[0].id)).molecule_count, (await org(newOrg)).molecule_count, (await org(orgs[2].id)).molecule_count], [2, 0, 2]);
      await upd({ organisms: [{ operation: 'sync', key: [orgs[1].id], without_detaching: true }] });
      t.same(((await mol(id)).organism_ids as number[]).sort(), [orgs[1].id, orgs[2].id].sort(), 'sync without detaching');
      await upd({ organisms: [{ operation: 'sync', key: [orgs[0].id] }, { operation: 'attach', key: [orgs[1].id] }] });
      t.same(((await mol(id)).organism_ids as number[]).sort(), [orgs[0].id, orgs[1].id].sort(), 'several operations on one relation run in order');
      await upd({ organisms: [{ operation: 'update', key: orgs[2].id, attributes: { rank: 'genus (fuzzy)' } }], properties: { operation: 'update', attributes: { np_likeness: 1.5 } } });
      t.equal((await org(orgs[2].id)).rank, 'genus (fuzzy)', 'update a related record');
      t.ok(((await mol(id)).organism_ids as number[]).includes(orgs[2].id), 'update also links it');
      t.match((await mol(id)).properties, { np_likeness: 1.5, molecular_weight: 12.01 }, 'HasOne update merges');
      const empty = await upd({ collections: [{ operation: 'sync', key: [] }] });
      t.same(empty.json.errors, { 'mutate.0.relations.collections.0.key': ['The mutate.0.relations.collections.0.key field is required when mutate.0.relations.collections.0.operation is sync.'] }, 'an empty key list fails `required` (differences.md: Lomkit lets it pass)');
      await upd({ citations: [{ operation: 'detach', key: cits[1].id }], collections: [{ operation: 'detach', key: [cols[0].id] }] });
      t.match(await mol(id), { citation_ids: [], collection_ids: [] }, 'detach the last links');
      t.equal((await b.store.findByIds('collections', [cols[0].id]))[0].molecule_count, 2);
    });

    t.test('the other side: an organism or collection lists and links its molecules', async (t) => {
      const before = (await mol(5)).organism_ids as number[];
      const o = await mutate('organisms', [{ operation: 'update', key: orgs[2].id, relations: { molecules: [{ operation: 'attach', key: [5] }] } }]);
      t.same(o.json, { created: [], updated: [orgs[2].id] });
      t.same((await mol(5)).organism_ids, [...before, orgs[2].id], 'attach from the organism side');
      const count = await b.store.count('molecules', { organism_ids: orgs[2].id });
      t.equal((await org(orgs[2].id)).molecule_count, count);
      await mutate('organisms', [{ operation: 'update', key: orgs[2].id, relations: { molecules: [{ operation: 'sync', key: [5] }] } }]);
      t.equal(await b.store.count('molecules', { organism_ids: orgs[2].id }), 1, 'sync from the organism side unlinks its other molecules');
      t.equal((await org(orgs[2].id)).molecule_count, 1);
      const c = await mutate('collections', [{ operation: 'create', attributes: { title: 'New set' }, relations: { molecules: [{ operation: 'attach', key: [1, 2] }, { operation: 'toggle', key: [2, 3] }] } }]);
      const cid = c.json.created[0];
      t.same((await b.store.find('molecules', { collection_ids: cid })).map((d) => d.id).sort(), [1, 3]);
      t.equal((await b.store.findByIds('collections', [cid]))[0].molecule_count, 2);
      const search = await b.call('POST', '/api/collections/search', { search: { filters: [{ field: 'id', value: cid }], includes: [{ relation: 'molecules', sorts: [{ field: 'id' }] }] } }, 'reader');
      t.same(search.json.data[0].molecules.map((x: any) => x.id), [1, 3], 'listed through the include');
    });

    t.test('nested relation operations and derivation of molecules created through a relation', async (t) => {
      const r = await mutate('organisms', [{
        operation: 'create',
        attributes: { name: 'Nested org', rank: 'species' },
        relations: {
          molecules: [{
            operation: 'create',
            attributes: { name: 'nested mol', canonical_smiles: 'OCCO' },
            relations: { collections: [{ operation: 'attach', key: [cols[1].id] }], properties: { operation: 'update', attributes: { np_likeness: -0.5 } } },
          }],
        },
      }]);
      t.equal(r.status, 200, JSON.stringify(r.json));
      const [oid] = r.json.created;
      const [m] = await b.store.find('molecules', { organism_ids: oid });
      t.match(m, { name: 'nested mol', standard_inchi: 'InChI=1S/fake/OCCO', identifier: /^CNP\d{7}$/, collection_ids: [cols[1].id] });
      t.match(m.properties, { heavy_atom_count: 4, np_likeness: -0.5 }, 'derived properties, then the nested properties update');
      t.equal((await org(oid)).molecule_count, 1);
      const bad = await mutate('organisms', [{ operation: 'update', key: oid, relations: { molecules: [{ operation: 'attach', key: [m.id], relations: { organisms: [{ operation: 'attach', key: [999] }], friends: [] } }] } }]);
      t.same(bad.json.errors, {
        'mutate.0.relations.molecules.0.relations': ['The friends key is not valid for the mutate.0.relations.molecules.0.relations field.'],
        'mutate.0.relations.molecules.0.relations.organisms.0.key': ['The selected mutate.0.relations.molecules.0.relations.organisms.0.key is invalid.'],
      }, 'nested relation operations are validated with their full path');
    });

    t.test('created and updated list top-level records in request order', async (t) => {
      const r = await mutate('citations', [
        { operation: 'update', key: cits[0].id, attributes: { title: 'A, revised' } },
        { operation: 'create', attributes: { doi: '10.1/c', title: 'C' } },
        { operation: 'create', attributes: { doi: '10.1/d' } },
        { operation: 'update', key: cits[1].id, attributes: { authors: null } },
      ]);
      t.equal(r.status, 200);
      t.equal(r.json.created.length, 2);
      t.ok(r.json.created[0] < r.json.created[1]);
      t.same(r.json.updated, [cits[0].id, cits[1].id]);
      t.match((await b.store.findByIds('citations', [cits[1].id]))[0], { authors: null, title: 'B' }, 'null clears, other fields stay');
    });

    t.test('all or nothing: a validation error writes nothing', async (t) => {
      const before = await b.store.count('molecules', {});
      const r = await mutate('molecules', [{ operation: 'create', attributes: { name: 'ok' } }, { operation: 'create', attributes: { name: 5 } }]);
      t.equal(r.status, 422);
      t.equal(await b.store.count('molecules', {}), before, 'nothing written');
    });

    t.test('403 for a reader, after validation', async (t) => {
      t.equal((await mutate('molecules', [{ operation: 'update', key: 1, attributes: { name: 'x' } }], 'reader')).status, 403);
      t.equal((await mutate('molecules', [{ operation: 'update', key: 1, attributes: { name: 7 } }], 'reader')).status, 422);
      t.equal((await mol(1)).name, 'caffeine');
    });
  });
}

/** A store whose `link` fails on demand: the writes before the failure must be undone. */
function failingLinks(store: CatalogStore, fail: { on: boolean }): CatalogStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'link') return async (...args: Parameters<CatalogStore['link']>) => {
        if (fail.on) throw new Error('disk full');
        return target.link(...args);
      };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

t.test('all or nothing: a failing write rolls back the earlier writes of the request', async (t) => {
  const base = await makeStore(t);
  await seed(base);
  const fail = { on: false };
  const store = failingLinks(base, fail);
  const app = Fastify();
  await app.register(catalogPlugin, { store, derive: fakeDerive });
  t.teardown(() => app.close());
  const token = await issueToken(store, (await ensureUser(store, 'c@x.org', 'curator')).id);
  const before = { count: await base.count('molecules', {}), m1: (await base.findByIds('molecules', [1]))[0], o1: (await base.findByIds('organisms', [1]))[0] };
  fail.on = true;
  const r = await app.inject({
    method: 'POST',
    url: '/api/molecules/mutate',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      mutate: [
        { operation: 'update', key: 1, attributes: { name: 'renamed', canonical_smiles: 'CCCCCCCCO' }, relations: { properties: { operation: 'update', attributes: { np_likeness: 3 } } } },
        { operation: 'update', key: 2, relations: { organisms: [{ operation: 'update', key: 1, attributes: { rank: 'changed' } }] } },
      ],
    },
  });
  t.equal(r.statusCode, 500);
  t.same(r.json(), { message: 'Server Error' });
  t.equal(await base.count('molecules', {}), before.count);
  t.same((await base.findByIds('molecules', [1]))[0], before.m1, 'molecule 1 restored (name, derived fields, properties)');
  t.same((await base.findByIds('organisms', [1]))[0], before.o1, 'the related organism restored');
});
