/** Mutate (create, update, every relation operation, all-or-nothing), derived chemistry, actions, delete. */
import t from 'tap';
import { build, seed } from './helper.ts';

t.test('mutate, actions, delete', async (t) => {
  const b = await build(t);
  const { orgs, cols } = await seed(b.store);
  const mol = async (id: number) => (await b.store.findByIds('molecules', [id]))[0];

  t.test('create with derived chemistry, identifier once, properties', async (t) => {
    const r = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: 'benzene', canonical_smiles: 'c1ccccc1', murko_framework: 'ignored' } }] }, 'curator');
    t.equal(r.status, 200);
    t.same(Object.keys(r.json), ['created', 'updated']);
    const [id] = r.json.created;
    const m = await mol(id);
    t.match(m, { name: 'benzene', status: 'DRAFT', active: false, murcko_framework: 'c1ccccc1', standard_inchi: 'InChI=1S/fake/c1ccccc1' });
    t.match(m.identifier, /^CNP\d{7}$/);
    t.match(m.properties, { heavy_atom_count: 6, molecular_formula: 'C6' });
    const again = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: id, attributes: { canonical_smiles: 'c1ccccc1C' } }] }, 'curator');
    t.same(again.json, { created: [], updated: [id] });
    t.equal((await mol(id)).identifier, m.identifier, 'identifier assigned once');
    t.equal(((await mol(id)).properties as any).heavy_atom_count, 7);
  });

  t.test('duplicate InChIKey and unparsable structure are 422', async (t) => {
    const dup = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { canonical_smiles: 'c1ccccc1C' } }] }, 'curator');
    t.equal(dup.status, 422);
    t.match(dup.json.errors['mutate.0.attributes.canonical_smiles'][0], /already in the catalog as molecule CNP\d{7}/);
    const twice = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { canonical_smiles: 'CN' } }, { operation: 'create', attributes: { canonical_smiles: 'CN' } }] }, 'curator');
    t.match(twice.json.errors['mutate.1.attributes.canonical_smiles'][0], /duplicates mutate.0/);
    const bad = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { canonical_smiles: 'C1CC?' } }] }, 'curator');
    t.equal(bad.status, 422);
    t.same(bad.json.errors, { 'mutate.0.attributes.canonical_smiles': ['Error reading SMILES, check again: C1CC?'] });
  });

  t.test('relation operations', async (t) => {
    const created = await b.call('POST', '/api/molecules/mutate', {
      mutate: [{
        operation: 'create',
        attributes: { name: 'rel-test' },
        relations: {
          organisms: [{ operation: 'attach', key: [orgs[0].id, orgs[1].id] }, { operation: 'create', attributes: { name: 'New org', rank: 'species' } }],
          collections: [{ operation: 'attach', key: cols[0].id }],
          properties: { operation: 'create', attributes: { molecular_weight: 12.345, molecular_formula: 'C' } },
        },
      }],
    }, 'curator');
    t.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.created[0];
    let m = await mol(id);
    t.equal((m.organism_ids as number[]).length, 3);
    t.same(m.collection_ids, [cols[0].id]);
    t.equal((m.properties as any).molecular_weight, 12.35, 'decimals rounded to 2 places');
    const upd = (relations: object) => b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: id, relations }] }, 'curator');
    await upd({ organisms: [{ operation: 'detach', key: orgs[0].id }] });
    t.notOk(((await mol(id)).organism_ids as number[]).includes(orgs[0].id), 'detach');
    await upd({ organisms: [{ operation: 'toggle', key: [orgs[0].id, orgs[1].id] }] });
    m = await mol(id);
    t.ok((m.organism_ids as number[]).includes(orgs[0].id), 'toggle links absent');
    t.notOk((m.organism_ids as number[]).includes(orgs[1].id), 'toggle unlinks present');
    await upd({ organisms: [{ operation: 'sync', key: [orgs[2].id] }] });
    t.same((await mol(id)).organism_ids, [orgs[2].id], 'sync');
    await upd({ organisms: [{ operation: 'sync', key: [orgs[1].id], without_detaching: true }] });
    t.same(((await mol(id)).organism_ids as number[]).sort(), [orgs[1].id, orgs[2].id].sort(), 'sync without detaching');
    await upd({ organisms: [{ operation: 'update', key: orgs[2].id, attributes: { rank: 'genus (fuzzy)' } }], properties: { operation: 'update', attributes: { np_likeness: 1.5 } } });
    t.equal((await b.store.findByIds('organisms', [orgs[2].id]))[0].rank, 'genus (fuzzy)', 'update related');
    t.match((await mol(id)).properties, { np_likeness: 1.5, molecular_weight: 12.35 });
    // the reverse side: an organism's molecules
    const o = await b.call('POST', '/api/organisms/mutate', { mutate: [{ operation: 'update', key: orgs[0].id, relations: { molecules: [{ operation: 'attach', key: [id] }] } }] }, 'curator');
    t.same(o.json, { created: [], updated: [orgs[0].id] });
    t.ok(((await mol(id)).organism_ids as number[]).includes(orgs[0].id), 'attach from the organism side');
  });

  t.test('all or nothing', async (t) => {
    const before = await b.store.count('molecules', {});
    const r = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: 'ok' } }, { operation: 'create', attributes: { name: 5 } }] }, 'curator');
    t.equal(r.status, 422);
    t.equal(await b.store.count('molecules', {}), before, 'nothing written');
  });

  t.test('status actions', async (t) => {
    const act = (key: string, search: object, role: 'curator' | 'reader' = 'curator', res = 'molecules') => b.call('POST', `/api/${res}/actions/${key}`, { search }, role);
    t.equal((await act('approve', { filters: [{ field: 'id', value: 3 }] }, 'reader')).status, 403);
    const bad = await act('approve', { filters: [{ field: 'id', value: 2 }] });
    t.equal(bad.status, 422, 'DRAFT cannot be approved directly');
    t.match(bad.json.errors.search[0], /Cannot move 1 molecule\(s\) to APPROVED: CNP0000002 \(DRAFT\)/);
    t.same((await act('submit-for-review', { filters: [{ field: 'id', value: 2 }] })).json, { data: { impacted: 1 } });
    t.same((await act('approve', { filters: [{ field: 'status', value: 'INREVIEW' }] })).json, { data: { impacted: 2 } });
    t.match(await mol(2), { status: 'APPROVED', active: true });
    t.same((await act('revoke', { filters: [{ field: 'id', value: 2 }] })).json, { data: { impacted: 1 } });
    t.match(await mol(2), { status: 'REVOKED', active: false });
    t.same((await act('recompute-properties', { filters: [{ field: 'id', value: 1 }] })).json, { data: { impacted: 1 } });
    t.equal((await mol(1)).standard_inchi, 'InChI=1S/fake/CO');
    t.same((await act('refresh-counts', {}, 'curator', 'organisms')).json, { data: { impacted: 4 } });
    t.equal((await b.store.findByIds('organisms', [orgs[0].id]))[0].molecule_count, 3);
    t.same((await act('refresh-counts', { filters: [{ field: 'id', value: cols[1].id }] }, 'curator', 'collections')).json, { data: { impacted: 1 } });
    const detail = await b.call('GET', '/api/molecules', undefined, 'curator');
    t.same(detail.json.data.actions.map((a: any) => a.uriKey), ['submit-for-review', 'approve', 'revoke', 'recompute-properties']);
    t.same((await b.call('GET', '/api/molecules', undefined, 'reader')).json.data.actions, [], 'readers see no actions');
  });

  t.test('delete', async (t) => {
    const r = await b.call('DELETE', '/api/organisms', { resources: [orgs[1].id] }, 'admin');
    t.equal(r.status, 200);
    t.same(r.json, { data: [{ id: orgs[1].id, name: 'Aspergillus niger', iri: 'http://x/2', rank: 'species', molecule_count: 3 }], meta: [] });
    t.equal(await b.store.count('molecules', { organism_ids: orgs[1].id }), 0, 'links removed');
    t.equal((await b.call('DELETE', '/api/molecules', { resources: [1] }, 'curator')).status, 403);
  });

  t.test('detail', async (t) => {
    const r = await b.call('GET', '/api/collections', undefined, 'reader');
    t.same(Object.keys(r.json.data), ['actions', 'instructions', 'scout_instructions', 'fields', 'scout_fields', 'limits', 'scopes', 'relations', 'rules']);
    t.same(r.json.data.fields, ['id', 'title', 'description', 'identifier', 'url']);
    t.same(r.json.data.limits, [10, 25, 50]);
    t.same(r.json.data.relations, [{ resource: 'MoleculeResource', relation: 'molecules', constraints: { required_on_creation: false, prohibited_on_creation: false, required_on_update: false, prohibited_on_update: false }, name: 'BelongsToMany' }]);
    const m = await b.call('GET', '/api/molecules', undefined, 'reader');
    t.same(m.json.data.relations.map((x: any) => `${x.relation}:${x.name}`), ['properties:HasOne', 'organisms:BelongsToMany', 'citations:BelongsToMany', 'collections:BelongsToMany']);
  });
});
