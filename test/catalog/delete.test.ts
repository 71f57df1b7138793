/** Delete (docs/spec/catalog-api.md §2.8) on every resource: response, links, counts, validation, all-or-nothing 403. */
import t from 'tap';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) {
  t.test(`delete on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { orgs, cols, cits } = await seed(b.store);
    await b.call('POST', '/api/organisms/actions/refresh-counts', {}, 'curator');
    const del = (res: string, resources: unknown, role: 'admin' | 'curator' | 'reader' = 'admin') => b.call('DELETE', `/api/${res}`, { resources }, role);

    t.test('an organism: the record comes back, its links go', async (t) => {
      const r = await del('organisms', [orgs[1].id]);
      t.equal(r.status, 200);
      // No lineage was given: every taxonomy field is null (docs/catalog.md, Organisms as taxonomy).
        const lineage = Object.fromEntries(['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id'].map((f) => [f, null]));
        t.same(r.json, { data: [{ id: orgs[1].id, name: 'Aspergillus niger', iri: 'http://x/2', rank: 'species', ...lineage, molecule_count: 2 }], meta: [] });
      t.equal(await b.store.count('organisms', { id: orgs[1].id }), 0);
      t.equal(await b.store.count('molecules', { organism_ids: orgs[1].id }), 0, 'no molecule links it any more');
      t.same((await b.store.findByIds('molecules', [1]))[0].organism_ids, [orgs[0].id]);
    });

    t.test('a collection and a citation, several at once', async (t) => {
      const r = await del('collections', [cols[0].id, cols[1].id]);
      t.same(r.json.data.map((c: any) => c.title), ['LOTUS', 'Demo']);
      t.same(Object.keys(r.json.data[0]), ['id', 'title', 'description', 'identifier', 'url']);
      t.equal(await b.store.count('molecules', { collection_ids: { $in: [cols[0].id, cols[1].id] } }), 0);
      t.same((await del('citations', [cits[0].id])).json.data, [{ id: cits[0].id, doi: '10.1/a', title: 'A', authors: 'Ann', citation_text: 'A 2020' }]);
      t.same((await b.store.findByIds('molecules', [1]))[0].citation_ids, []);
    });

    t.test('molecules: counts of their organisms follow', async (t) => {
      // organism 1 ← molecules 1 and 6
      const r = await del('molecules', [6, 1]);
      t.same(r.json.data.map((m: any) => [m.id, m.name]), [[6, '50%_off'], [1, 'caffeine']], 'in request order');
      t.equal(r.json.data[0].murko_framework, null, 'serialised like a search record');
      t.equal((await b.store.findByIds('organisms', [orgs[0].id]))[0].molecule_count, 0);
      t.equal(await b.store.count('molecules', {}), 4);
    });

    t.test('validation before authorisation; one denial deletes nothing', async (t) => {
      t.same((await del('molecules', undefined)).json.errors, { resources: ['The resources field is required.'] });
      t.same((await del('molecules', 'x')).json.errors, { resources: ['The resources field must be an array.'] });
      const dup = await del('molecules', [2, 2]);
      t.same(dup.json, {
        message: 'The resources.0 field has a duplicate value. (and 1 more error)',
        errors: { 'resources.0': ['The resources.0 field has a duplicate value.'], 'resources.1': ['The resources.1 field has a duplicate value.'] },
      }, 'distinct flags every position of a repeated id, the first one too (Laravel)');
      t.same((await del('molecules', [3, 999, 3, 999])).json.errors, {
        'resources.0': ['The resources.0 field has a duplicate value.'],
        'resources.1': ['The resources.1 field has a duplicate value.', 'The selected resources.1 is invalid.'],
        'resources.2': ['The resources.2 field has a duplicate value.'],
        'resources.3': ['The resources.3 field has a duplicate value.', 'The selected resources.3 is invalid.'],
      }, 'a repeated unknown id gets both messages');
      t.same((await del('molecules', [])).json.errors, { resources: ['The resources field is required.'] }, 'an empty list fails required');
      t.same((await del('molecules', [2, 999, 'a'])).json.errors, { 'resources.1': ['The selected resources.1 is invalid.'], 'resources.2': ['The selected resources.2 is invalid.'] });
      t.equal((await del('molecules', [999], 'reader')).status, 422, '422 before 403');
      t.equal((await del('molecules', [2, 3], 'curator')).status, 403);
      t.equal((await del('molecules', [2], 'reader')).status, 403);
      t.equal(await b.store.count('molecules', { id: { $in: [2, 3] } }), 2, 'nothing deleted');
    });
  });
}
