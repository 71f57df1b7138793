/**
 * Lomkit/Laravel compatibility of catalog writes (issue 16): no write drops data silently
 * (attributes on toggle/sync are written as Lomkit writes them, pivot values are refused by
 * name), every error of a mutate item is reported with Laravel's summary message. The delete
 * list's `distinct` rule is in delete.test.ts. Runs on every store kind.
 */
import t from 'tap';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) {
  t.test(`write compatibility on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { orgs, cols } = await seed(b.store);
    const mol = async (id: number) => (await b.store.findByIds('molecules', [id]))[0];
    const org = async (id: number) => (await b.store.findByIds('organisms', [id]))[0];
    const mutate = (res: string, items: unknown[]) => b.call('POST', `/api/${res}/mutate`, { mutate: items }, 'curator');
    const relOn = (res: string, key: number, relations: object) => mutate(res, [{ operation: 'update', key, relations }]);

    t.test('sync and toggle write their attributes on the related records, as Lomkit does', async (t) => {
      const s = await relOn('molecules', 3, { organisms: [{ operation: 'sync', key: [orgs[2].id], attributes: { rank: 'genus (synced)' } }] });
      t.same(s.json, { created: [], updated: [3] });
      t.equal((await org(orgs[2].id)).rank, 'genus (synced)', 'sync wrote the organism attribute');
      t.same((await mol(3)).organism_ids, [orgs[2].id], 'and linked it');
      const on = await relOn('molecules', 3, { organisms: [{ operation: 'toggle', key: orgs[1].id, attributes: { iri: 'http://x/toggled' } }] });
      t.equal(on.status, 200);
      t.equal((await org(orgs[1].id)).iri, 'http://x/toggled', 'toggle (linking) wrote the attribute');
      t.ok(((await mol(3)).organism_ids as number[]).includes(orgs[1].id));
      await relOn('molecules', 3, { organisms: [{ operation: 'toggle', key: orgs[1].id, attributes: { rank: 'species (untoggled)' } }] });
      t.equal((await org(orgs[1].id)).rank, 'species (untoggled)', 'toggle (unlinking) writes too: Lomkit saves before it toggles');
      t.notOk(((await mol(3)).organism_ids as number[]).includes(orgs[1].id));

      // From the other side, with a structure: derived like any other molecule write.
      const d = await relOn('collections', cols[1].id, { molecules: [{ operation: 'sync', key: [5], without_detaching: true, attributes: { name: 'synced', canonical_smiles: 'OCC(O)CO' } }] });
      t.equal(d.status, 200, JSON.stringify(d.json));
      t.match(await mol(5), { name: 'synced', standard_inchi: 'InChI=1S/fake/OCC(O)CO', collection_ids: [cols[1].id] });
      const two = await relOn('collections', cols[1].id, { molecules: [{ operation: 'toggle', key: [5, 6], attributes: { canonical_smiles: 'CCCCCN' } }] });
      t.same(two.json.errors, { 'mutate.0.relations.molecules.0.attributes.canonical_smiles': ['The mutate.0.relations.molecules.0.attributes.canonical_smiles field cannot set one structure on 2 molecules.'] });
      const bad = await relOn('molecules', 3, { organisms: [{ operation: 'sync', key: [orgs[0].id], attributes: { colour: 'red', molecule_count: 9 } }] });
      t.same(bad.json.errors, {
        'mutate.0.relations.organisms.0.attributes': ['The colour key is not valid for the mutate.0.relations.organisms.0.attributes field.'],
        'mutate.0.relations.organisms.0.attributes.molecule_count': ['The mutate.0.relations.organisms.0.attributes.molecule_count field is prohibited.'],
      }, 'attributes of sync are validated like those of update');
      const r = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: 3, relations: { organisms: [{ operation: 'sync', key: [orgs[0].id], attributes: { rank: 'x' } }] } }] }, 'reader');
      t.equal(r.status, 403);
      t.equal((await org(orgs[0].id)).rank, 'species', 'nothing written for a reader');
    });

    t.test('pivot values are refused by name (no relation has pivot fields)', async (t) => {
      const e = async (relOp: object, key: string, msg: string) => {
        const r = await relOn('molecules', 2, { organisms: [relOp] });
        t.equal(r.status, 422, msg);
        t.same(r.json.errors, { [`mutate.0.relations.organisms.0.${key}`]: [msg] }, msg);
      };
      for (const op of ['attach', 'sync', 'toggle', 'update']) {
        await e({ operation: op, key: orgs[2].id, pivot: { organism_parts: 'leaf' } }, 'pivot', 'The organism_parts key is not valid for the mutate.0.relations.organisms.0.pivot field.');
      }
      await e({ operation: 'create', attributes: { name: 'With pivot' }, pivot: { sample_location_id: 1 } }, 'pivot', 'The sample_location_id key is not valid for the mutate.0.relations.organisms.0.pivot field.');
      await e({ operation: 'attach', key: orgs[2].id, pivot: 'leaf' }, 'pivot', 'The mutate.0.relations.organisms.0.pivot field must be an array.');
      await e({ operation: 'attach', key: orgs[2].id, pivot: ['leaf'] }, 'pivot', 'The 0 key is not valid for the mutate.0.relations.organisms.0.pivot field.');
      await e({ operation: 'detach', key: orgs[1].id, pivot: { part: 'leaf' } }, 'pivot', 'The mutate.0.relations.organisms.0.pivot field is prohibited when mutate.0.relations.organisms.0.operation is detach.');
      const p = await relOn('molecules', 2, { properties: { operation: 'update', attributes: { np_likeness: 1 }, pivot: { x: 1 } } });
      t.same(p.json.errors, { 'mutate.0.relations.properties.pivot': ['The x key is not valid for the mutate.0.relations.properties.pivot field.'] }, 'nor on the HasOne');
      t.equal(((await mol(2)).organism_ids as number[]).includes(orgs[2].id), false, 'nothing linked by the refused requests');
      const empty = await relOn('molecules', 2, { organisms: [{ operation: 'attach', key: orgs[2].id, pivot: {}, attributes: [] }] });
      t.equal(empty.status, 200, 'an empty pivot or attributes carries nothing to drop (Laravel: empty passes prohibited)');
      t.ok(((await mol(2)).organism_ids as number[]).includes(orgs[2].id));
      const attr = await relOn('molecules', 2, { organisms: [{ operation: 'attach', key: orgs[0].id, attributes: { rank: 'x' } }] });
      t.same(attr.json.errors, { 'mutate.0.relations.organisms.0.attributes': ['The mutate.0.relations.organisms.0.attributes field is prohibited when mutate.0.relations.organisms.0.operation is attach.'] });
    });

    t.test('without_detaching is a Laravel boolean, never misread', async (t) => {
      await relOn('molecules', 4, { organisms: [{ operation: 'sync', key: [orgs[0].id] }] });
      const r = await relOn('molecules', 4, { organisms: [{ operation: 'sync', key: [orgs[1].id], without_detaching: '1' }] });
      t.equal(r.status, 200);
      t.same(((await mol(4)).organism_ids as number[]).sort(), [orgs[0].id, orgs[1].id].sort(), '"1" keeps the other links');
      const bad = await relOn('molecules', 4, { organisms: [{ operation: 'sync', key: [orgs[2].id], without_detaching: 'yes' }] });
      t.same(bad.json.errors, { 'mutate.0.relations.organisms.0.without_detaching': ['The mutate.0.relations.organisms.0.without_detaching field must be true or false.'] });
      t.same(((await mol(4)).organism_ids as number[]).sort(), [orgs[0].id, orgs[1].id].sort(), 'and a refused value unlinks nothing');
    });

    t.test('every error of an item is reported, with the "(and N more errors)" summary', async (t) => {
      const both = await mutate('molecules', [{ operation: 'attach' }]);
      t.same(both.json, {
        message: 'The selected mutate.0.operation is invalid. (and 1 more error)',
        errors: {
          'mutate.0.operation': ['The selected mutate.0.operation is invalid.'],
          'mutate.0.key': ['The mutate.0.key field is required when mutate.0.operation is attach.'],
        },
      }, 'Lomkit MutateCreateOperationsTest: attach at the top level without a key');
      const three = await mutate('molecules', [{ operation: 'detach', attributes: { name: 'x', colour: 'red' } }]);
      t.same(three.json, {
        message: 'The selected mutate.0.operation is invalid. (and 3 more errors)',
        errors: {
          'mutate.0.operation': ['The selected mutate.0.operation is invalid.'],
          'mutate.0.key': ['The mutate.0.key field is required when mutate.0.operation is detach.'],
          'mutate.0.attributes': ['The mutate.0.attributes field is prohibited when mutate.0.operation is detach.', 'The colour key is not valid for the mutate.0.attributes field.'],
        },
      });
      const none = await mutate('molecules', [{ key: 1 }]);
      t.same(none.json.errors, { 'mutate.0.operation': ['The mutate.0.operation field is required.'] });
      const rel = await mutate('molecules', [{ operation: 'update', key: 1, relations: { organisms: [{ operation: 'merge', key: 999, attributes: { colour: 'red' } }] } }]);
      t.same(rel.json, {
        message: 'The selected mutate.0.relations.organisms.0.operation is invalid. (and 2 more errors)',
        errors: {
          'mutate.0.relations.organisms.0.operation': ['The selected mutate.0.relations.organisms.0.operation is invalid.'],
          'mutate.0.relations.organisms.0.key': ['The selected mutate.0.relations.organisms.0.key is invalid.'],
          'mutate.0.relations.organisms.0.attributes': ['The colour key is not valid for the mutate.0.relations.organisms.0.attributes field.'],
        },
      }, 'a relation operation too: an invalid operation does not hide its other errors');
      const items = await mutate('molecules', [{ operation: 'update' }, { operation: 'create', key: 1 }]);
      t.same(items.json.message, 'The mutate.0.key field must be present when mutate.0.operation is update. (and 1 more error)', 'errors of several items add up');
      t.equal((await mol(1)).name, 'caffeine', 'nothing written');
    });
  });
}

t.test('a blank structure is refused on create and update, and nothing stored changes', async (t) => {
  const b = await build(t);
  const created = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { canonical_smiles: 'CCO' } }] });
  t.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.created[0];
  const before = await b.store.findOne('molecules', { id });
  for (const op of [{ operation: 'create', attributes: { canonical_smiles: '   ' } }, { operation: 'update', key: id, attributes: { canonical_smiles: ' \t' } }]) {
    const res = await b.call('POST', '/api/molecules/mutate', { mutate: [op] });
    t.equal(res.status, 422, `${op.operation}: 422`);
    t.match(res.json.message, /not blank/);
  }
  t.same(await b.store.findOne('molecules', { id }), before, 'the stored molecule is unchanged');
  t.equal(await b.store.count('molecules', {}), 1, 'nothing created');
});
