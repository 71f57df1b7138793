/**
 * `/api/reports` (issue "COCONUT drop-in" §3): COCONUT's ReportResource fields, readers creating
 * and seeing their own reports, curators all; DRAFT → SUBMITTED → APPROVED / REJECTED through the
 * actions; approving a SUBMISSION creates the molecule (derived by RDKit, compared with the
 * InChIKey LOTUS gives for the row) with its organism and citation, approving an UPDATE applies
 * it, approving a REVOKE revokes; audit entries for each; bad input 422. Both store kinds.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';

const rdkit = await loadRDKit();
const derive = (input: { structure: string }) => deriveMolecule(rdkit, input);

// The independent reference: LOTUS's own row (structure, its InChIKey, organism, DOI), parsed here.
const tsv = gunzipSync(await readFile(fileURLToPath(new URL('../../api/catalog/data/lotus_manually_validated_413.tsv.gz', import.meta.url)))).toString('utf8').split('\n');
const head = tsv[0].split('\t');
const row = Object.fromEntries(tsv[1].split('\t').map((v, i) => [head[i], v]));
const LOTUS = { smiles: row.structureCleanedSmiles, inchikey: row.structureCleanedInchikey3D, organism: row.organismCleaned, doi: row.referenceCleanedDoi, title: row.referenceCleanedTitle };

for (const kind of storeKinds()) {
  t.test(`/api/reports on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind, derive);
    const { mols, orgs } = await seed(b.store);
    const user = async (email: string) => (await b.store.findOne('users', { email }))!.id;
    const readerId = await user('reader@x.org');
    const curatorId = await user('curator@x.org');
    const create = (attributes: object, role: 'reader' | 'curator' | 'admin' = 'reader') => b.call('POST', '/api/reports/mutate', { mutate: [{ operation: 'create', attributes }] }, role);
    const act = (key: string, id: number, role: 'reader' | 'curator' | 'admin' = 'curator', reason?: string) =>
      b.call('POST', `/api/reports/actions/${key}`, { search: { filters: [{ field: 'id', value: id }] }, ...(reason ? { fields: [{ name: 'reason', value: reason }] } : {}) }, role);
    const report = async (id: number) => (await b.store.findByIds('reports', [id]))[0];
    const audits = async (res: string, id: number) => (await b.call('GET', `/api/${res}/${id}/audits`, undefined, 'curator')).json.data as any[];

    t.test('detail: COCONUT\'s fields and the actions each role may run', async (t) => {
      const r = await b.call('GET', '/api/reports', undefined, 'reader');
      t.equal(r.status, 200);
      for (const f of ['title', 'evidence', 'comment', 'suggested_changes', 'mol_ids', 'doi', 'report_type', 'report_category', 'status', 'user_id', 'canonical_smiles', 'organism', 'organism_part', 'geo_location', 'reference']) t.ok(r.json.data.fields.includes(f), f);
      t.same(r.json.data.actions.map((a: any) => a.uriKey), ['submit'], 'a reader may only submit');
      t.match(r.json.data.rules.all, { title: ['required_on_create|string'], status: ['nullable|in:DRAFT,SUBMITTED'], user_id: ['prohibited'] }, 'a reader may create');
      t.same((await b.call('GET', '/api/reports', undefined, 'curator')).json.data.actions.map((a: any) => a.uriKey), ['submit', 'approve', 'reject']);
      t.equal((await b.call('GET', '/api/reports', undefined, null)).status, 401);
    });

    t.test('a reader submits a new molecule; a curator approves it: the molecule with its chemistry and links', async (t) => {
      const c = await create({ title: 'New indole pigment', canonical_smiles: LOTUS.smiles, name: 'arcyriaflavin X', organism: LOTUS.organism, organism_part: 'fruiting body', geo_location: 'Japan', doi: LOTUS.doi, reference: LOTUS.title, evidence: 'NMR', comment: 'isolated 1980' });
      t.equal(c.status, 200);
      const id = c.json.created[0];
      t.match(await report(id), { status: 'SUBMITTED', user_id: readerId, report_type: 'molecule', report_category: 'SUBMISSION', created_at: String }, 'SUBMITTED by default, as COCONUT');
      t.equal((await act('approve', id, 'reader')).status, 403, 'readers do not approve');
      const a = await act('approve', id, 'curator', 'checked against the paper');
      t.same(a.json, { data: { impacted: 1 } });
      const rep = await report(id);
      t.match(rep, { status: 'APPROVED', curator_id: curatorId, reason: 'checked against the paper', molecule_id: Number });
      const mol = (await b.store.findByIds('molecules', [rep.molecule_id as number]))[0];
      t.equal(mol.standard_inchi_key, LOTUS.inchikey, 'InChIKey derived from the structure = LOTUS\'s');
      t.match(mol, { name: 'arcyriaflavin X', status: 'APPROVED', active: true, identifier: /^CNP\d{7}$/, standard_inchi: /^InChI=1S\/C20H11N3O3\// });
      t.match(mol.properties, { molecular_formula: 'C20H11N3O3', heavy_atom_count: 26 });
      const org = (await b.store.findOne('organisms', { name: LOTUS.organism }))!;
      const cit = (await b.store.findOne('citations', { doi: LOTUS.doi }))!;
      t.same([mol.organism_ids, mol.citation_ids], [[org.id], [cit.id]], 'linked to the (new) organism and citation');
      t.equal(cit.title, LOTUS.title);
      t.equal(org.molecule_count, 1, 'counts kept');
      t.match(await audits('molecules', mol.id), [{ event: 'created', user_id: curatorId, tags: `report:${id}`, new_values: { standard_inchi_key: LOTUS.inchikey } }]);
      t.match(await audits('reports', id), [
        { event: 'created', user_id: readerId, tags: 'mutate', new_values: { status: 'SUBMITTED', title: 'New indole pigment' } },
        { event: 'updated', user_id: curatorId, tags: 'action:approve', old_values: { status: 'SUBMITTED' }, new_values: { status: 'APPROVED', molecule_id: mol.id } },
      ]);
      t.equal((await act('approve', id)).status, 422, 'approved once');
      // the same structure submitted again cannot be approved: the catalog has it
      const again = (await create({ title: 'dup', canonical_smiles: LOTUS.smiles })).json.created[0];
      const dup = await act('approve', again);
      t.equal(dup.status, 422);
      t.match(dup.json.errors[`reports.${again}`][0], /^Report \d+ cannot be approved: The structure is already in the catalog/);
      t.equal((await report(again)).status, 'SUBMITTED', 'left as it was');
    });

    t.test('draft → submit → reject: the rejected report stays readable', async (t) => {
      const id = (await create({ title: 'Maybe synthetic', report_category: 'REVOKE', mol_ids: ['CNP0000001'], status: 'DRAFT', evidence: 'sold by vendors' })).json.created[0];
      t.match(await report(id), { status: 'DRAFT', molecule_ids: [mols[0].id] }, 'mol_ids resolved');
      t.equal((await b.call('POST', '/api/reports/mutate', { mutate: [{ operation: 'update', key: id, attributes: { evidence: 'catalogue numbers' } }] }, 'reader')).status, 200, 'the author edits its draft');
      t.equal((await act('approve', id)).status, 422, 'a draft is not approved');
      t.same((await act('submit', id, 'reader')).json, { data: { impacted: 1 } });
      t.equal((await b.call('POST', '/api/reports/mutate', { mutate: [{ operation: 'update', key: id, attributes: { evidence: 'x' } }] }, 'reader')).status, 403, 'not once submitted');
      const noReason = await act('reject', id);
      t.equal(noReason.status, 422, 'reject needs a reason');
      t.same((await act('reject', id, 'curator', 'it is a natural product')).json, { data: { impacted: 1 } });
      t.match(await report(id), { status: 'REJECTED', reason: 'it is a natural product', curator_id: curatorId });
      t.equal((await b.store.findByIds('molecules', [mols[0].id]))[0].status, 'APPROVED', 'a rejected report changes nothing');
      const s = await b.call('POST', '/api/reports/search', { search: { filters: [{ field: 'status', value: 'REJECTED' }] } }, 'curator');
      t.same(s.json.data.map((r: any) => r.id), [id], 'curators read rejected reports');
      t.equal((await b.call('POST', '/api/reports/mutate', { mutate: [{ operation: 'update', key: id, attributes: { comment: 'x' } }] }, 'admin')).status, 403, 'a decided report is not edited');
      t.equal((await b.call('DELETE', '/api/reports', { resources: [id] }, 'admin')).status, 403, 'nor deleted');
    });

    t.test('a change request and a revoke report, approved', async (t) => {
      const up = (await create({ title: 'Rank', report_type: 'organism', report_category: 'UPDATE', organism_ids: [orgs[0].id], suggested_changes: { rank: 'subspecies' } })).json.created[0];
      t.equal((await act('approve', up)).status, 200);
      t.equal((await b.store.findByIds('organisms', [orgs[0].id]))[0].rank, 'subspecies');
      t.match((await audits('organisms', orgs[0].id)).at(-1), { tags: `report:${up}`, old_values: { rank: 'species' }, new_values: { rank: 'subspecies' } });
      const rv = (await create({ title: 'Synthetic', report_category: 'REVOKE', molecule_ids: [mols[4].id] })).json.created[0];
      t.equal((await act('approve', rv)).status, 200);
      t.match((await b.store.findByIds('molecules', [mols[4].id]))[0], { status: 'REVOKED', active: false });
      t.match((await audits('molecules', mols[4].id)).at(-1), { tags: `report:${rv}`, old_values: { status: 'APPROVED' }, new_values: { status: 'REVOKED' } });
      const s = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'id', value: mols[4].id }] } }, 'curator');
      t.match(s.json.data, [{ status: 'REVOKED' }], 'the revoked molecule stays readable');
    });

    t.test('readers see their own reports only; curators all', async (t) => {
      const mine = (await b.call('POST', '/api/reports/search', { search: { limit: 50 } }, 'reader')).json;
      t.ok(mine.data.length > 0 && mine.data.every((r: any) => r.user_id === readerId));
      const other = (await create({ title: 'Curator note', report_category: 'REVOKE', molecule_ids: [mols[0].id] }, 'curator')).json.created[0];
      t.notOk((await b.call('POST', '/api/reports/search', { search: { limit: 50 } }, 'reader')).json.data.some((r: any) => r.id === other));
      t.equal((await b.call('POST', '/api/reports/search', { search: { filters: [{ field: 'id', value: other }] } }, 'reader')).json.total, 0);
      t.ok((await b.call('POST', '/api/reports/search', { search: { limit: 50 } }, 'curator')).json.data.some((r: any) => r.id === other));
      t.same((await act('submit', other, 'reader')).json, { data: { impacted: 0 } }, 'an action selects only the reader\'s own');
      t.equal((await b.call('GET', `/api/reports/${other}/audits`, undefined, 'reader')).status, 403, 'readers do not read trails');
      t.equal((await b.call('POST', '/api/reports/search', {}, null)).status, 401);
    });

    t.test('bad input: 422 with Lomkit\'s {message, errors}', async (t) => {
      const cases: [object, string][] = [
        [{ canonical_smiles: 'CCO' }, 'mutate.0.attributes.title'],
        [{ title: 'x', nope: 1 }, 'mutate.0.attributes'],
        [{ title: 'x', canonical_smiles: 'CCO', user_id: 5 }, 'mutate.0.attributes.user_id'],
        [{ title: { $where: 'sleep(100)' }, canonical_smiles: 'CCO' }, 'mutate.0.attributes.title'],
        [{ title: 'x', canonical_smiles: { $gt: '' } }, 'mutate.0.attributes.canonical_smiles'],
        [{ title: 'x', canonical_smiles: 'CCO', suggested_changes: { $set: { role: 'admin' } } }, 'mutate.0.attributes.suggested_changes'],
        [{ title: 'x', canonical_smiles: 'CCO', suggested_changes: { 'a.b': 1 } }, 'mutate.0.attributes.suggested_changes'],
        [{ title: 'x', canonical_smiles: 'CCO', suggested_changes: 'text' }, 'mutate.0.attributes.suggested_changes'],
        [{ title: 'x', canonical_smiles: 'CCO', status: 'APPROVED' }, 'mutate.0.attributes.status'],
        [{ title: 'x', canonical_smiles: 'CCO', report_type: 'planet' }, 'mutate.0.attributes.report_type'],
        [{ title: 'x' }, 'mutate.0.attributes.canonical_smiles'],
        [{ title: 'x', report_category: 'REVOKE' }, 'mutate.0.attributes.molecule_ids'],
        [{ title: 'x', report_category: 'REVOKE', molecule_ids: [999999] }, 'mutate.0.attributes.molecule_ids.0'],
        [{ title: 'x', report_category: 'REVOKE', molecule_ids: ['1'] }, 'mutate.0.attributes.molecule_ids'],
        [{ title: 'x', report_category: 'REVOKE', mol_ids: ['CNP9999999'] }, 'mutate.0.attributes.mol_ids.0'],
        [{ title: 'x', report_category: 'UPDATE', molecule_ids: [mols[0].id] }, 'mutate.0.attributes.suggested_changes'],
        [{ title: 'x', report_category: 'UPDATE', molecule_ids: [mols[0].id], suggested_changes: { standard_inchi_key: 'X' } }, 'mutate.0.attributes.suggested_changes.standard_inchi_key'],
        [{ title: 'x', report_category: 'UPDATE', molecule_ids: [mols[0].id], suggested_changes: { colour: 'red' } }, 'mutate.0.attributes.suggested_changes'],
      ];
      const before = await b.store.count('reports', {});
      for (const [attrs, key] of cases) {
        const r = await create(attrs);
        t.equal(r.status, 422, key);
        t.ok(r.json.errors?.[key], `${JSON.stringify(attrs)} → ${key}: ${JSON.stringify(r.json.errors)}`);
        t.type(r.json.message, 'string');
      }
      t.equal(await b.store.count('reports', {}), before, 'nothing written');
      const s = await b.call('POST', '/api/reports/search', { search: { filters: [{ field: 'suggested_changes', value: 'x' }] } }, 'curator');
      t.equal(s.status, 422, 'a json field is not filtered');
      const st = await b.call('POST', '/api/reports/mutate', { mutate: [{ operation: 'update', key: (await b.store.find('reports', {}, { limit: 1 }))[0].id, attributes: { status: 'SUBMITTED' } }] }, 'curator');
      t.equal(st.status, 422, 'status moves only through the actions');
      t.equal((await b.call('POST', '/api/reports/actions/approve', { search: { filters: [{ field: 'id', value: { $gt: 0 } }] } }, 'curator')).status, 422);
    });
  });
}
