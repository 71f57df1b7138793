/**
 * Molecule fields written and kept through the REST routes, on every store kind: `synonyms` and
 * `cas` (mutate takes one string or a list; synonyms deduplicated as COCONUT does; detail lists
 * them; Lomkit filters, `ilike` included; COCONUT's text search; CSV exports), and the fields the
 * server keeps after every write: `organism_count` (filtered and sorted), `annotation_level`
 * (COCONUT's formula) and the stereo family fields (`variants_count`, `has_variants`, `is_parent`).
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import { StructureSearch } from '../../api/catalog/search/structure/structure.ts';
import { checkAnswers } from '../helpers/openapi-check.ts';
import { storeVariant } from '../helpers/skip.ts';
import { build, fakeDerive, makeStore, storeKinds } from './helper.ts';

// Alanine and its two enantiomers: one InChIKey first block, one flat InChI.
const FLAT = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)';
const ALANINE: Record<string, [inchi: string, key: string, stereo: boolean]> = {
  'CC(N)C(=O)O': [FLAT, 'QNAYBMKLOCPYGJ-UHFFFAOYSA-N', false],
  'C[C@H](N)C(=O)O': [`${FLAT}/t2-/m0/s1`, 'QNAYBMKLOCPYGJ-REOHCLBHSA-N', true],
  'C[C@@H](N)C(=O)O': [`${FLAT}/t2-/m1/s1`, 'QNAYBMKLOCPYGJ-UWTATZPHSA-N', true],
};
async function derive(i: DeriveInput): Promise<DerivedMolecule> {
  const d = await fakeDerive(i);
  const a = ALANINE[i.structure];
  return a ? { ...d, standard_inchi: a[0], standard_inchi_key: a[1], has_stereo: a[2] } : d;
}

for (const kind of storeKinds({ mingo: true })) {
  t.test(`molecule fields on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind, derive);
    const mutate = (res: string, items: unknown[]) => b.call('POST', `/api/${res}/mutate`, { mutate: items }, 'curator');
    const create = async (res: string, attributes: object, relations?: object) => {
      const r = await mutate(res, [{ operation: 'create', attributes, ...(relations ? { relations } : {}) }]);
      t.equal(r.status, 200, JSON.stringify(r.json).slice(0, 300));
      return r.json.created[0] as number;
    };
    const mol = async (id: number) => (await b.store.findByIds('molecules', [id]))[0];
    const ids = async (filters: unknown[], sorts?: unknown[]) => {
      const r = await b.call('POST', '/api/molecules/search', { search: { filters, ...(sorts ? { sorts } : {}) } }, 'reader');
      t.equal(r.status, 200, JSON.stringify(r.json).slice(0, 300));
      return (r.json.data as { id: number }[]).map((d) => d.id);
    };

    t.test('synonyms and cas: written (one string or a list), deduplicated, listed, filtered, text-searched', async (t) => {
      const q = await create('molecules', { name: 'Quercetin', active: true, cas: '117-39-5', synonyms: ['sophoretin', 'sophoretine', 'Sophoretin', 'QUERCETOL', 'meletin', 'sophoretin'] });
      const r = await create('molecules', { name: 'rutin', synonyms: 'Quercetin rutinoside', cas: ['153-18-4', '250249-75-3'] });
      t.match(await mol(q), { cas: ['117-39-5'], synonyms: ['sophoretin', 'QUERCETOL', 'meletin'] }, 'one CAS string wrapped; near-duplicates (similar_text ≥ 90%: 95.2%, 90%) dropped');
      t.match(await mol(r), { synonyms: ['Quercetin rutinoside'], cas: ['153-18-4', '250249-75-3'] }, 'one synonym string wrapped');
      await mutate('molecules', [{ operation: 'update', key: r, attributes: { synonyms: ['rutoside', 'Rutoside', 'rutosides'] } }]);
      t.same((await mol(r)).synonyms, ['rutoside', 'Rutoside'], 'an update is deduplicated too (rutosides: 94%)');
      const detail = (await b.call('GET', '/api/molecules', undefined, 'admin')).json.data;
      t.ok(detail.fields.includes('synonyms') && detail.fields.includes('cas') && detail.fields.includes('organism_count'), 'detail lists them');
      t.same(detail.rules.all.synonyms, ['nullable|array']);
      const out = (await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', value: q }] } }, 'reader')).json.data[0];
      t.same(out.synonyms, ['sophoretin', 'QUERCETOL', 'meletin'], 'search answers them');
      t.same(await ids([{ field: 'synonyms', value: 'meletin' }]), [q], '= on a list: contains');
      t.same(await ids([{ field: 'synonyms', operator: 'like', value: 'Rutos%' }]), [r]);
      t.same(await ids([{ field: 'synonyms', operator: 'like', value: 'quercetol' }]), [], 'like is case-sensitive');
      t.same(await ids([{ field: 'synonyms', operator: 'ilike', value: 'quercetol' }]), [q], 'ilike is not');
      t.same(await ids([{ field: 'cas', operator: 'in', value: ['250249-75-3', 'x'] }]), [r]);
      t.same(await ids([{ field: 'cas', operator: 'like', value: '117-%' }]), [q]);
      await b.call('DELETE', '/api/molecules', { resources: [q, r] }, 'admin');
    });

    t.test('organism_count and annotation_level follow every write (COCONUT\'s formula)', async (t) => {
      const o1 = await create('organisms', { name: 'Rosa canina' });
      const o2 = await create('organisms', { name: 'Rosa gallica' });
      const col = await create('collections', { title: 'Roses' });
      const cit = await create('citations', { doi: '10.1/rose' });
      const m = await create('molecules', { name: 'rosin' });
      const level = async () => {
        const d = await mol(m);
        return [d.organism_count, d.annotation_level];
      };
      t.same(await level(), [0, 1], 'name: 0.10 × 5 = 0.5 → 1');
      await mutate('molecules', [{ operation: 'update', key: m, relations: { organisms: [{ operation: 'attach', key: o1 }, { operation: 'attach', key: o2 }] } }]);
      t.same(await level(), [2, 2], '+ organisms: 0.30 × 5 = 1.5 → 2');
      await mutate('molecules', [{ operation: 'update', key: m, attributes: { cas: '1-2-3' } }]);
      t.same(await level(), [2, 3], '+ CAS: 0.45 × 5 = 2.25 → 3');
      await mutate('molecules', [{ operation: 'update', key: m, attributes: { synonyms: ['rosine'] } }]);
      t.same(await level(), [2, 3], '+ synonyms: 0.60 × 5 = 3 (rounded to 2 places before ceil)');
      await mutate('collections', [{ operation: 'update', key: col, relations: { molecules: [{ operation: 'attach', key: m }] } }]);
      t.same(await level(), [2, 4], '+ collection (from the other side): 0.75 × 5 = 3.75 → 4');
      await mutate('molecules', [{ operation: 'update', key: m, relations: { citations: [{ operation: 'attach', key: cit }] } }]);
      t.same(await level(), [2, 5], '+ citation: 1.0 × 5 = 5');
      t.equal((await b.call('DELETE', '/api/organisms', { resources: [o1] }, 'admin')).status, 200);
      t.same(await level(), [1, 5], 'an organism deleted: its molecules recounted');
      await mutate('molecules', [{ operation: 'update', key: m, attributes: { name: null }, relations: { organisms: [{ operation: 'detach', key: o2 }] } }]);
      t.same(await level(), [0, 4], 'no name, no organism: 0.70 × 5 = 3.5 → 4');
      const other = await create('molecules', { name: 'two organisms' }, { organisms: [{ operation: 'attach', key: o2 }] });
      t.same(await ids([{ field: 'organism_count', operator: '>=', value: 1 }]), [other], 'filterable');
      const sorted = await ids([{ field: 'id', operator: 'in', value: [m, other] }], [{ field: 'organism_count', direction: 'desc' }]);
      t.same(sorted, [other, m], 'sortable');
      const refused = await mutate('molecules', [{ operation: 'update', key: m, attributes: { annotation_level: 5, organism_count: 9, is_parent: true } }]);
      t.equal(refused.status, 422, 'the kept fields are read-only');
      t.match(refused.json.errors, { 'mutate.0.attributes.annotation_level': [/prohibited/], 'mutate.0.attributes.organism_count': [/prohibited/] });
      await b.call('DELETE', '/api/molecules', { resources: [m, other] }, 'admin');
    });

    t.test('stereo parents and variants: counted after each write', async (t) => {
      const fam = async (...ms: number[]) => (await b.store.findByIds('molecules', ms)).map((d) => [d.variants_count, d.has_variants, d.is_parent]);
      const r = await mutate('molecules', [
        { operation: 'create', attributes: { name: 'L-alanine', canonical_smiles: 'C[C@H](N)C(=O)O' } },
        { operation: 'create', attributes: { name: 'alanine', canonical_smiles: 'CC(N)C(=O)O' } },
        { operation: 'create', attributes: { name: 'D-alanine', canonical_smiles: 'C[C@@H](N)C(=O)O' } },
        { operation: 'create', attributes: { name: 'ethanol', canonical_smiles: 'CCO' } },
      ]);
      t.equal(r.status, 200);
      const [l, flat, d, eth] = r.json.created as number[];
      t.same(await fam(flat, l, d, eth), [[2, true, true], [0, true, false], [0, true, false], [0, false, false]], 'the flat parent counts its two variants');
      const found = await ids([{ field: 'is_parent', value: true }, { field: 'variants_count', operator: '>', value: 1 }]);
      t.same(found, [flat], 'filterable');
      t.equal((await b.call('DELETE', '/api/molecules', { resources: [d] }, 'admin')).status, 200);
      t.same(await fam(flat, l), [[1, true, true], [0, true, false]], 'a variant deleted: the parent recounted');
      await mutate('molecules', [{ operation: 'update', key: l, attributes: { canonical_smiles: 'CCCO' } }]);
      t.same(await fam(flat, l), [[0, false, false], [0, false, false]], 'a variant given another structure leaves the family');
      await mutate('molecules', [{ operation: 'update', key: l, attributes: { canonical_smiles: 'C[C@@H](N)C(=O)O' } }]);
      t.same(await fam(flat, l), [[1, true, true], [0, true, false]], 'and joins it again');
      await b.call('DELETE', '/api/molecules', { resources: [flat] }, 'admin');
      t.same(await fam(l), [[0, false, false]], 'its parent deleted: a variant alone');
      await b.call('DELETE', '/api/molecules', { resources: [l, eth] }, 'admin');
    });
  });
}

for (const kind of storeKinds({ mingo: true })) {
  t.test(`COCONUT's text search and CSV exports on ${kind}`, storeVariant(kind), async (t) => {
    const store = await makeStore(t, kind);
    const dir = await mkdtemp(join(tmpdir(), 'natprod-export-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const app = Fastify();
    const none = async (s: string[]) => s.map(() => null);
    // `/api/search` comes with structure search; text searches never run a chemistry task
    const structure = new StructureSearch(undefined as never, store);
    await app.register(catalogPlugin, { store, derive, structure, exports: { dir, syncMax: 100, ttlSeconds: 60, molblocks: none, molblocks3d: none } });
    const violations = checkAnswers(app);
    await app.ready();
    t.teardown(async () => {
      await app.close();
      if (violations.length) throw new Error(violations.join('\n'));
    });
    const headers = { authorization: `Bearer ${await issueToken(store, (await ensureUser(store, 'admin@x.org', 'admin', 'secret-pass')).id)}` };
    const mutate = await app.inject({ method: 'POST', url: '/api/molecules/mutate', headers, payload: { mutate: [{ operation: 'create', attributes: { name: 'rutin', active: true, cas: '153-18-4', synonyms: ['rutoside', 'sophorin'] } }] } });
    t.equal(mutate.statusCode, 200, mutate.body);
    const [id] = mutate.json().created;
    for (const query of ['SOPHORIN', 'utosid']) {
      const text = await app.inject({ method: 'POST', url: '/api/search', payload: { query, type: 'text' } });
      t.equal(text.statusCode, 200, text.body);
      t.same(text.json().data.data.map((d: { id: number }) => d.id), [id], `text search finds a synonym (${query}: any case, any part)`);
    }
    const res = await app.inject({ method: 'POST', url: '/api/molecules/export', headers, payload: { format: 'csv', fields: ['name', 'cas', 'synonyms', 'organism_count', 'annotation_level'] } });
    t.equal(res.statusCode, 200, res.body);
    t.same(res.body.trim().split('\r\n'), ['name,cas,synonyms,organism_count,annotation_level', 'rutin,153-18-4,rutoside; sophorin,0,2'], 'lists joined with "; "; 0.40 × 5 = 2');
  });
}
