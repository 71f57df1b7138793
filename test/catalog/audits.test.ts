/**
 * The audit trail (issue "COCONUT drop-in" §3): one `audits` entry per record and write, from
 * every write path (mutate create/update with relations, actions, recompute, delete, import),
 * with the changed fields old → new; `GET /api/<r>/{id}/audits` for curators and admins, 403 for
 * readers, 401 without a token, 404 for a record that never existed. Both store kinds.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { build, fakeDerive, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import { importFile } from '../../api/catalog/import/run.ts';

const data = (f: string) => fileURLToPath(new URL(`../../api/catalog/data/${f}`, import.meta.url));

for (const kind of storeKinds()) {
  t.test(`audit trail on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { mols, orgs } = await seed(b.store);
    const trail = async (res: string, id: number, role: 'curator' | 'admin' = 'curator') => {
      const r = await b.call('GET', `/api/${res}/${id}/audits`, undefined, role);
      t.equal(r.status, 200, `${res} ${id} audits`);
      return r.json.data as any[];
    };
    const ids = await b.store.findByIds('users', []);
    void ids;
    const curatorId = (await b.store.findOne('users', { email: 'curator@x.org' }))!.id;
    const adminId = (await b.store.findOne('users', { email: 'admin@x.org' }))!.id;

    t.test('mutate create and update: created with its values, updated with old → new, relations included', async (t) => {
      const c = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: 'newmol', canonical_smiles: 'CCCN' }, relations: { organisms: [{ operation: 'attach', key: orgs[0].id }] } }] }, 'curator');
      t.equal(c.status, 200);
      const id = c.json.created[0];
      let a = await trail('molecules', id);
      t.equal(a.length, 1, 'one entry for the whole request');
      t.match(a[0], { auditable_type: 'App\\Models\\Molecule', auditable_id: id, event: 'created', user_id: curatorId, old_values: {}, tags: 'mutate', created_at: String });
      t.match(a[0].new_values, { name: 'newmol', canonical_smiles: 'CCCN', status: 'DRAFT', organism_ids: [orgs[0].id], identifier: /^CNP\d{7}$/, standard_inchi_key: String });
      t.match(a[0].new_values.properties, { molecular_formula: 'C4' }, 'the derived properties');
      t.notOk('fingerprints' in a[0].new_values, 'no search data');
      t.same(Object.keys(a[0]), ['id', 'auditable_type', 'auditable_id', 'event', 'user_id', 'old_values', 'new_values', 'tags', 'created_at']);

      const u = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: id, attributes: { name: 'renamed', iupac_name: null }, relations: { organisms: [{ operation: 'detach', key: orgs[0].id }], properties: { operation: 'update', attributes: { alogp: 3.14159 } } } }] }, 'admin');
      t.equal(u.status, 200);
      a = await trail('molecules', id, 'admin');
      t.equal(a.length, 2);
      t.match(a[1], { event: 'updated', user_id: adminId });
      t.same(a[1].old_values, { name: 'newmol', organism_ids: [orgs[0].id], properties: { alogp: 1.5 } }, 'only the changed fields (iupac_name was already null)');
      t.same(a[1].new_values, { name: 'renamed', organism_ids: [], properties: { alogp: 3.14 } });
      const none = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: id, attributes: { name: 'renamed' } }] }, 'curator');
      t.equal(none.status, 200);
      t.equal((await trail('molecules', id)).length, 2, 'a write that changes nothing leaves no entry');
      const bad = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: id, attributes: { name: 'x' } }, { operation: 'update', key: 99999, attributes: { name: 'y' } }] }, 'curator');
      t.equal(bad.status, 422);
      t.equal((await trail('molecules', id)).length, 2, 'a refused request leaves no entry');
      const org = await b.call('POST', '/api/organisms/mutate', { mutate: [{ operation: 'update', key: orgs[1].id, attributes: { rank: 'genus' } }] }, 'curator');
      t.equal(org.status, 200);
      t.match(await trail('organisms', orgs[1].id), [{ auditable_type: 'App\\Models\\Organism', event: 'updated', old_values: { rank: 'species' }, new_values: { rank: 'genus' } }]);
    });

    t.test('actions: status moves with old → new, recompute with the new chemistry', async (t) => {
      const m = mols[2].id; // INREVIEW
      t.equal((await b.call('POST', '/api/molecules/actions/approve', { search: { filters: [{ field: 'id', value: m }] } }, 'curator')).status, 200);
      t.equal((await b.call('POST', '/api/molecules/actions/revoke', { search: { filters: [{ field: 'id', value: m }] }, fields: [{ name: 'reason', value: 'synthetic' }] }, 'curator')).status, 200);
      const a = await trail('molecules', m);
      t.match(a, [
        { event: 'updated', tags: 'action:approve', old_values: { status: 'INREVIEW', active: false }, new_values: { status: 'APPROVED', active: true } },
        { event: 'updated', tags: 'action:revoke', old_values: { status: 'APPROVED', active: true }, new_values: { status: 'REVOKED', active: false } },
      ]);
      t.equal((await b.call('POST', '/api/molecules/actions/recompute-properties', { search: { filters: [{ field: 'id', value: mols[1].id }] } }, 'curator')).status, 200);
      await b.background.idle();
      const r = await trail('molecules', mols[1].id);
      const want = await fakeDerive({ structure: 'CCO' });
      t.match(r.at(-1), { tags: 'action:recompute-properties', old_values: { standard_inchi_key: 'KEY1' }, new_values: { standard_inchi_key: want.standard_inchi_key, properties: { molecular_formula: want.properties.molecular_formula } } });
      // the revoked molecule stays readable to curators (and is not hidden from searches)
      const s = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', value: m }] } }, 'curator');
      t.match(s.json.data, [{ id: m, status: 'REVOKED' }]);
    });

    t.test('delete: the deleted record keeps its trail; unlinked molecules get theirs', async (t) => {
      const org = orgs[2].id; // linked to molecule 3
      const d = await b.call('DELETE', '/api/organisms', { resources: [org] }, 'admin');
      t.equal(d.status, 200);
      t.match(await trail('organisms', org), [{ event: 'deleted', user_id: adminId, tags: 'delete', old_values: { name: 'Aspergillus', rank: 'genus' }, new_values: {} }]);
      t.match((await trail('molecules', mols[3].id)).at(-1), { event: 'updated', tags: 'delete', old_values: { organism_ids: [org] }, new_values: { organism_ids: [] } });
      const dm = await b.call('DELETE', '/api/molecules', { resources: [mols[5].id] }, 'admin');
      t.equal(dm.status, 200);
      t.match((await trail('molecules', mols[5].id)).at(-1), { event: 'deleted', old_values: { name: '50%_off', identifier: 'CNP0000006' } });
    });

    t.test('who may read it', async (t) => {
      const url = `/api/molecules/${mols[0].id}/audits`;
      t.same(await b.call('GET', url, undefined, 'reader'), { status: 403, json: { message: 'This action is unauthorized.' } });
      t.equal((await b.call('GET', url, undefined, null)).status, 401);
      t.same((await b.call('GET', url, undefined, 'curator')).json, { data: [] }, 'a record never written through the API has an empty trail');
      t.equal((await b.call('GET', '/api/molecules/999999/audits', undefined, 'curator')).status, 404);
      t.equal((await b.call('GET', '/api/molecules/abc/audits', undefined, 'curator')).status, 404);
      t.equal((await b.call('GET', `/api/users/${curatorId}/audits`, undefined, 'curator')).status, 403, 'users\' trails are the admin\'s');
      t.equal((await b.call('GET', `/api/users/${curatorId}/audits`, undefined, 'admin')).status, 200);
    });

    t.test('users: a password change is recorded without the hash', async (t) => {
      const c = await b.call('POST', '/api/users/mutate', { mutate: [{ operation: 'create', attributes: { email: 'new@x.org', role: 'reader', password: 'long-enough-1' } }] }, 'admin');
      t.equal(c.status, 200);
      const [e] = await trail('users', c.json.created[0], 'admin');
      t.match(e.new_values, { email: 'new@x.org', role: 'reader', password: '(changed)' });
      t.notOk(JSON.stringify(e).includes('scrypt'), 'no hash in the trail');
    });

    t.test('import: one created entry per record, user_id null, tag import', async (t) => {
      const dir = await mkdtemp(join(tmpdir(), 'natprod-audit-'));
      t.teardown(() => rm(dir, { recursive: true, force: true }));
      const lines = gunzipSync(await readFile(data('lotus_manually_validated_413.tsv.gz'))).toString('utf8').split('\n');
      const part = join(dir, 'part.tsv');
      await writeFile(part, lines.slice(0, 6).join('\n') + '\n');
      const before = await b.store.count('audits', { tags: 'import' });
      const s = await importFile(b.store, part, { derive: fakeDerive });
      const created = s.created.molecules + s.created.organisms + s.created.citations + s.created.collections;
      t.ok(created > 5, `${created} records created`);
      const entries = await b.store.find('audits', { tags: 'import' });
      t.equal(entries.length - before, created, 'one entry per created record (links are part of the molecule\'s)');
      t.ok(entries.every((e) => e.user_id === null && e.event === 'created'));
      const mol = (await b.store.find('molecules', { name: { $exists: true } }, { sort: [{ field: 'id', dir: -1, nulls: 'last' }], limit: 1 }))[0];
      t.match(await trail('molecules', mol.id), [{ event: 'created', tags: 'import' }]);
      const again = await importFile(b.store, part, { derive: fakeDerive });
      t.equal(again.created.molecules, 0);
      t.equal(await b.store.count('audits', { tags: 'import' }), entries.length, 'a re-import that changes nothing leaves no entry');
    });
  });
}
