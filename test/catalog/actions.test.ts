/**
 * Actions (docs/spec/catalog-api.md §2.7 and issue point 5): status lifecycle with invalid moves reported, the revoke
 * reason, recompute-properties as queued derivations, refresh-counts, `impacted`, field
 * validation, status order. Runs on every store kind.
 */
import t from 'tap';
import type { DeriveInput } from '../../shared/chem/catalog/ports.ts';
import { build, fakeDerive, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) {
  t.test(`actions on ${kind}`, storeVariant(kind), async (t) => {
    // A derivation the test can hold back, to show recompute answers before it finishes.
    let gate: Promise<void> = Promise.resolve();
    const derive = async (i: DeriveInput) => {
      await gate;
      return fakeDerive(i);
    };
    const b = await build(t, kind, derive);
    const { orgs, cols } = await seed(b.store);
    const mol = async (id: number) => (await b.store.findByIds('molecules', [id]))[0];
    const act = (key: string, body: object, role: 'curator' | 'reader' | 'admin' = 'curator', res = 'molecules') => b.call('POST', `/api/${res}/actions/${key}`, body, role);
    const byId = (...ids: number[]) => ({ search: { filters: [{ field: 'id', operator: 'in', value: ids }] } });

    t.test('detail lists the actions with their fields', async (t) => {
      const curator = await b.call('GET', '/api/molecules', undefined, 'curator');
      t.same(curator.json.data.actions, [
        { name: 'Submit For Review', uriKey: 'submit-for-review', fields: [], meta: [], standalone: false },
        { name: 'Approve', uriKey: 'approve', fields: [], meta: [], standalone: false },
        { name: 'Revoke', uriKey: 'revoke', fields: { reason: ['sometimes', 'string', 'max:1000'] }, meta: [], standalone: false },
        { name: 'Recompute Properties', uriKey: 'recompute-properties', fields: [], meta: [], standalone: false },
        { name: 'Refresh Counts', uriKey: 'refresh-counts', fields: [], meta: [], standalone: false },
      ]);
      t.same((await b.call('GET', '/api/organisms', undefined, 'admin')).json.data.actions.map((a: any) => a.uriKey), ['refresh-counts']);
      t.same((await b.call('GET', '/api/collections', undefined, 'curator')).json.data.actions.map((a: any) => a.uriKey), ['refresh-counts']);
      t.same((await b.call('GET', '/api/citations', undefined, 'curator')).json.data.actions, []);
      t.same((await b.call('GET', '/api/molecules', undefined, 'reader')).json.data.actions, [], 'readers may run no action, so none is listed');
    });

    t.test('status lifecycle DRAFT → INREVIEW → APPROVED → REVOKED', async (t) => {
      // seed statuses: 1 APPROVED, 2 DRAFT, 3 INREVIEW, 4 REVOKED, 5 APPROVED, 6 DRAFT
      const bad = await act('approve', byId(2, 3, 6));
      t.equal(bad.status, 422, 'DRAFT cannot be approved directly');
      t.same(bad.json.errors, { search: ['Cannot move 2 molecule(s) to APPROVED: CNP0000002 (DRAFT), CNP0000006 (DRAFT); allowed from INREVIEW or REVOKED.'] });
      t.equal((await mol(3)).status, 'INREVIEW', 'an invalid move changes nothing, not even the valid records');
      t.equal((await act('revoke', byId(2))).status, 422, 'a DRAFT cannot be revoked');
      t.equal((await act('submit-for-review', byId(1))).status, 422, 'an APPROVED molecule is not sent back to review');
      t.same((await act('submit-for-review', byId(2))).json, { data: { impacted: 1 } });
      t.match(await mol(2), { status: 'INREVIEW', active: false });
      t.same((await act('approve', { search: { scopes: [{ name: 'in_review' }] } })).json, { data: { impacted: 2 } });
      t.match(await mol(2), { status: 'APPROVED', active: true, identifier: 'CNP0000002' });
      t.same((await act('revoke', { ...byId(2), fields: [{ name: 'reason', value: 'wrong organism' }] })).json, { data: { impacted: 1 } });
      const revoked = await mol(2);
      t.match(revoked, { status: 'REVOKED', active: false });
      t.match(revoked.comment, [{ action: 'revoke', comment: 'wrong organism', user_id: Number, timestamp: String }], 'the reason goes to the curation log');
      t.notOk('comment' in (await b.call('POST', '/api/molecules/search', byId(2), 'reader')).json.data[0], 'the log is not an exposed field');
      t.same((await act('approve', byId(2, 4))).json, { data: { impacted: 2 } }, 'REVOKED can be approved again');
      t.same((await act('submit-for-review', byId(6))).json, { data: { impacted: 1 } });
    });

    t.test('approve assigns an identifier when the molecule has none', async (t) => {
      const m = await b.store.insert('molecules', { name: 'unnamed', status: 'INREVIEW', identifier: null });
      await act('approve', byId(m.id));
      t.match((await mol(m.id)).identifier, /^CNP\d{7}$/);
    });

    t.test('impacted counts the records changed, not the limit', async (t) => {
      const r = await act('revoke', { search: { filters: [{ field: 'id', value: 5 }], limit: 10 } });
      t.same(r.json, { data: { impacted: 1 } });
      const none = await act('revoke', { search: { filters: [{ field: 'id', value: 99 }] } });
      t.same(none.json, { data: { impacted: 0 } });
    });

    t.test('recompute-properties queues derivations and answers at once', async (t) => {
      await b.store.update('molecules', 6, { canonical_smiles: 'C?broken' });
      await b.store.update('molecules', 5, { canonical_smiles: null });
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      const r = await act('recompute-properties', byId(1, 2, 5, 6));
      t.same(r.json, { data: { impacted: 3 } }, 'molecule 5 has no structure to derive');
      t.notOk((await mol(1)).standard_inchi, 'answered before any derivation finished');
      release();
      await b.background.idle();
      t.match(await mol(1), { standard_inchi: 'InChI=1S/fake/CO', canonical_smiles: 'CO', properties: { heavy_atom_count: 2, molecular_weight: 24.02 } }, 'derived fields and properties replaced');
      t.equal((await mol(2)).standard_inchi, 'InChI=1S/fake/CCO');
      t.notOk((await mol(6)).standard_inchi, 'an unreadable stored structure is left as it is');
      t.ok(b.log.lines.some((l) => /^warn: recompute-properties: molecule CNP0000006 \(id 6\): Error reading smiles/.test(l)), 'and reported');
      t.ok(b.log.lines.includes('info: recompute-properties: 2 of 3 molecules recomputed, 1 failed'));
    });

    t.test('recompute-properties does not give two molecules one InChIKey', async (t) => {
      await b.store.update('molecules', 3, { canonical_smiles: 'CO' }); // molecule 1 now holds fake InChIKey of CO
      await act('recompute-properties', byId(3));
      await b.background.idle();
      t.notOk((await mol(3)).standard_inchi, 'not updated');
      t.ok(b.log.lines.some((l) => l.startsWith('warn: recompute-properties: molecule CNP0000003 (id 3): its structure now has the InChIKey of molecule CNP0000001')));
    });

    t.test('refresh-counts on organisms and collections', async (t) => {
      await b.store.update('organisms', orgs[0].id, { molecule_count: 99 });
      t.same((await act('refresh-counts', {}, 'curator', 'organisms')).json, { data: { impacted: 3 } });
      // seed links: organism 1 ← molecules 1, 6; organism 2 ← 1, 2; organism 3 ← 4
      t.same((await b.store.find('organisms', {}, { sort: [{ field: 'id', dir: 1, nulls: 'last' }] })).map((o) => o.molecule_count), [2, 2, 1]);
      t.same((await act('refresh-counts', { search: { filters: [{ field: 'title', value: 'Demo' }] } }, 'curator', 'collections')).json, { data: { impacted: 1 } });
      t.equal((await b.store.findByIds('collections', [cols[1].id]))[0].molecule_count, 2, 'collection Demo ← molecules 2, 3');
    });

    t.test('refresh-counts on molecules: organism_count and annotation_level of stores written before they were kept', async (t) => {
      // the seed writes the store directly: annotation levels 3, 1, 5, 2, 4, 0 and no organism_count
      t.same((await act('refresh-counts', byId(1, 4))).json, { data: { impacted: 2 } });
      // 1: name, CAS, organisms 1 and 2, collection, citation: 0.85 × 5 = 4.25 → 5; 4: organism 3 only: 0.20 × 5 = 1
      t.match(await mol(1), { organism_count: 2, annotation_level: 5 });
      t.match(await mol(4), { organism_count: 1, annotation_level: 1 });
      t.equal((await mol(3)).annotation_level, 5, 'molecules outside the search are left alone');
    });

    t.test('validation, 404 and 403 in Lomkit order', async (t) => {
      const unknown = await act('nope', { search: { limit: 7 } }, 'reader');
      t.equal(unknown.status, 404, 'unknown action: 404 before validation and authorisation');
      const fields = await act('revoke', { fields: [{ name: 'colour', value: 'red' }, { name: 'reason', value: 'x'.repeat(1001) }], search: { limit: 7 } }, 'reader');
      t.equal(fields.status, 422, '422 before 403');
      t.same(fields.json.errors, {
        'search.limit': ['The selected search.limit is invalid.'],
        'fields.0.name': ['The selected fields.0.name is invalid.'],
        'fields.1.value': ['The fields.1.value field must not be greater than 1000 characters.'],
      });
      t.same((await act('revoke', { fields: 'x' })).json.errors, { fields: ['The fields field must be an array.'] });
      t.equal((await act('revoke', byId(1), 'reader')).status, 403);
      t.equal((await act('refresh-counts', {}, 'reader', 'organisms')).status, 403);
      t.equal((await act('approve', {}, 'curator', 'citations')).status, 404, 'actions belong to their resource');
    });
  });
}
