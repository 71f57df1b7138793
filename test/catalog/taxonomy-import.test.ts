/**
 * Organism taxonomy through the generic import: lineage and id columns by their common names,
 * the Wikidata id from a Wikidata IRI, and merging: an organism seen again (later in the file, or
 * in a later file) keeps every stored value and only gets its empty fields filled.
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile } from '../../api/catalog/import/run.ts';
import { organismIdsUnderTaxon } from '../../api/catalog/taxonomy/taxon.ts';
import { fakeDerive, makeStore } from './helper.ts';

const FIELDS = ['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id'];

t.test('generic columns fill the lineage and ids; a later sighting only fills gaps', async (t) => {
  const store = await makeStore(t);
  const dir = await mkdtemp(join(tmpdir(), 'natprod-taxon-import-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = join(dir, 'first.csv');
  await writeFile(
    first,
    [
      'smiles,organism,organism_iri,Family,genus,NCBI_TaxID,gbif_id,kingdom',
      'CCO,Vitis vinifera,http://www.wikidata.org/entity/Q11000047,Vitaceae,Vitis,29760,NA,',
      // the same organism again in this file: fills the kingdom, keeps the family and NCBI id
      'CCCO,Vitis vinifera,,Rosaceae,,1,5372392,Archaeplastida',
      'CCCCO,Homo sapiens,,,,9606,,',
    ].join('\n') + '\n',
  );
  const s1 = await importFile(store, first, { derive: fakeDerive });
  t.same(s1.rejected, []);
  const vitis = (await store.findOne('organisms', { name: 'Vitis vinifera' }))!;
  t.match(vitis, { family: 'Vitaceae', genus: 'Vitis', ncbi_id: 29760, gbif_id: 5372392, kingdom: 'Archaeplastida', wikidata_id: 'Q11000047' });
  t.notOk(vitis.species ?? vitis.tribe ?? vitis.variety, 'absent columns stay empty');

  const second = join(dir, 'second.tsv');
  await writeFile(second, ['smiles\torganism_name\torganism_family\torganism_genus\torganism_ncbi_id\twikidata_id', 'CCO\tVitis vinifera\tOther\tOther\t5\tQ1', 'CCN\tHomo sapiens\tHominidae\tHomo\t1\tQ15978631', 'CCC\tNo lineage\t\t\t\t'].join('\n') + '\n');
  await importFile(store, second, { derive: fakeDerive });
  const again = (await store.findOne('organisms', { name: 'Vitis vinifera' }))!;
  t.same(Object.fromEntries(FIELDS.map((f) => [f, again[f] ?? null])), Object.fromEntries(FIELDS.map((f) => [f, vitis[f] ?? null])), 'nothing stored is replaced');
  t.match(await store.findOne('organisms', { name: 'Homo sapiens' }), { ncbi_id: 9606, family: 'Hominidae', genus: 'Homo', wikidata_id: 'Q15978631' });
  const bare = (await store.findOne('organisms', { name: 'No lineage' }))!;
  t.same(FIELDS.filter((f) => bare[f] !== undefined && bare[f] !== null), [], 'no column, no value');

  t.same(await organismIdsUnderTaxon(store, 'vitaceae'), [vitis.id], 'the taxon finds it, ignoring case');
  t.same(await organismIdsUnderTaxon(store, 'Rosaceae'), [], 'the second row\'s family was not stored');
  t.same(await organismIdsUnderTaxon(store, ' homo '), [(await store.findOne('organisms', { name: 'Homo sapiens' }))!.id], 'surrounding spaces ignored');
  t.match(await organismIdsUnderTaxon(store, '').catch((e: unknown) => e), { errors: { taxon: [/required/] } }, 'an empty taxon is refused');
  t.match(await organismIdsUnderTaxon(store, { $gt: '' } as unknown as string).catch((e: unknown) => e), { errors: { taxon: [/must be a string/] } }, 'an operator object is refused');
});
