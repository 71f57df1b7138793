/**
 * One declaration per resource: a plain field added to a resource's schema (here `ticker`, a
 * COCONUT molecules column we do not expose) reaches validation (filters, sorts, selects), the
 * detail answer, serialization, new-record defaults, both stores' index lists, the export
 * columns and the docs table, with nothing else edited. And the shipped declarations give what
 * the stores, mutate, the importer and the export used to list by hand.
 */
import t from 'tap';
import { fieldsTable } from '../../api/catalog/schema/docs.ts';
import { defineResource, type ResourceSchema } from '../../api/catalog/schema/define.ts';
import { moleculesSchema } from '../../api/catalog/schema/molecules.ts';
import { DERIVED_FIELDS, SCHEMAS, exportDefaults, molecules, recordDefaults, storeIndexes } from '../../api/catalog/schema/resources.ts';
import { Errors, type CatalogUser } from '../../api/catalog/schema/types.ts';
import { validateSearch } from '../../api/catalog/search/lomkit/validate.ts';
import { serialize } from '../../api/catalog/search/lomkit/search.ts';
import { detail } from '../../api/catalog/operations.ts';

const admin: CatalogUser = { id: 1, email: 'a@b.c', role: 'admin' };

t.test('a plain field added to one schema appears everywhere', async (t) => {
  const schema = {
    ...moleculesSchema,
    fields: { ...moleculesSchema.fields, ticker: { type: 'int', default: 0, index: true, export: 9, doc: 'COCONUT ticker.' } },
  } as ResourceSchema;
  const r = defineResource(schema);
  const schemas = { ...SCHEMAS, molecules: schema };

  const e = new Errors();
  validateSearch(r, { filters: [{ field: 'ticker', operator: '>', value: '3' }], sorts: [{ field: 'ticker', direction: 'desc' }], selects: [{ field: 'ticker' }] }, 'search', e);
  t.same(e.map, {}, 'filter, sort and select accepted');
  const bad = new Errors();
  validateSearch(r, { filters: [{ field: 'ticker', value: 'x' }] }, 'search', bad);
  t.same(bad.map['search.filters.0.value'], ['The search.filters.0.value field must be a number.'], 'typed as an integer');
  const before = new Errors();
  validateSearch(molecules, { sorts: [{ field: 'ticker' }] }, 'search', before);
  t.ok(before.any, 'the shipped resource does not know it');

  const d = detail(r, admin).data;
  t.equal(d.fields.at(-1), 'ticker', 'detail lists it last, after the seed fields');
  t.same((d.rules.all as Record<string, string[]>).ticker, ['nullable|integer'], 'detail advertises its rule');
  t.same(Object.keys(serialize(r, { id: 1, ticker: 7 })).at(-1), 'ticker', 'serialized after the seed fields');
  t.equal(serialize(r, { id: 1, ticker: 7 }).ticker, 7);

  t.equal(recordDefaults('molecules', schemas).ticker, 0, 'new records get its default');
  const ix = storeIndexes('molecules', schemas);
  t.ok(ix.embedded.includes('ticker'), 'nedb index');
  t.ok(ix.mongo.includes('ticker'), 'MongoDB index');
  t.same(exportDefaults(schema).at(-1), 'ticker', 'export column at its rank');
  t.match(fieldsTable(schema), '| `ticker` | int | `0` |  | nedb, mongo | 9 | COCONUT ticker. |', 'docs table row');
});

t.test('the shipped declarations give the lists that were written by hand', async (t) => {
  const sorted = (a: string[]) => [...a].sort();
  const mol = storeIndexes('molecules');
  t.same(sorted(mol.embedded), sorted(['identifier', 'standard_inchi_key', 'standard_inchi', 'name', 'organism_ids', 'citation_ids', 'collection_ids', 'properties.molecular_weight', 'properties.molecular_formula']), 'nedb, molecules');
  t.same(sorted(mol.mongo), sorted([
    'identifier', 'name', 'standard_inchi', 'is_placeholder', 'organism_ids', 'citation_ids', 'collection_ids',
    'properties.molecular_weight', 'properties.exact_molecular_weight', 'properties.molecular_formula',
    'properties.heavy_atom_count', 'properties.total_atom_count', 'properties.alogp',
    'properties.topological_polar_surface_area', 'properties.np_likeness', 'properties.qed_drug_likeliness',
    'properties.van_der_walls_volume', 'properties.chemical_class', 'properties.chemical_sub_class',
    'properties.chemical_super_class', 'properties.direct_parent_classification',
    'properties.np_classifier_pathway', 'properties.np_classifier_superclass', 'properties.np_classifier_class',
  ]), 'MongoDB, molecules');
  t.same(mol.mongoUnique, ['standard_inchi_key']);
  t.same(sorted(mol.columns), sorted(['active', 'status', 'annotation_level', 'organism_count', 'is_placeholder']));
  t.same(mol.columnPrefixes, ['properties.']);
  t.same(storeIndexes('organisms'), { embedded: ['name', 'iri', 'family', 'genus', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id'], mongo: ['name', 'iri', 'family', 'genus', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id'], mongoUnique: [], columns: [], columnPrefixes: [], repeated: [], sameAs: [], onDisk: [], repeatedLists: [] });
  t.same(sorted(mol.repeated), sorted(['status', 'properties.chemical_class', 'properties.chemical_sub_class', 'properties.chemical_super_class', 'properties.direct_parent_classification', 'properties.np_classifier_pathway', 'properties.np_classifier_superclass', 'properties.np_classifier_class']), 'values shared in the embedded store (repeats)');
  t.same([storeIndexes('citations').embedded, storeIndexes('citations').mongo], [['doi', 'title'], ['doi']]);
  t.same([storeIndexes('collections').embedded, storeIndexes('collections').mongo], [['title', 'identifier'], ['title', 'identifier']]);
  t.same([storeIndexes('users').embedded, storeIndexes('users').mongo, storeIndexes('users').mongoUnique], [['email'], [], ['email']]);
  t.same([storeIndexes('tokens').embedded, storeIndexes('meta').mongo], [['user_id'], ['key']]);

  t.same(recordDefaults('molecules'), {
    name_trust_level: 0, annotation_level: 0, variants_count: 0, organism_count: 0, status: 'DRAFT', active: false, has_variants: false, has_stereo: false,
    is_tautomer: false, is_parent: false, is_placeholder: false, organism_ids: [], citation_ids: [], collection_ids: [], properties: null,
  }, 'COCONUT\'s column defaults (docs/spec/catalog-api.md §3.4), one literal for mutate and the importer');
  t.not(recordDefaults('molecules').organism_ids, recordDefaults('molecules').organism_ids, 'a fresh list each time');
  t.same([recordDefaults('organisms'), recordDefaults('collections'), recordDefaults('citations'), recordDefaults('users')], [{ molecule_count: 0 }, { molecule_count: 0 }, {}, {}]);
  t.same(exportDefaults(), ['id', 'identifier', 'name', 'canonical_smiles', 'standard_inchi_key', 'molecular_formula', 'molecular_weight', 'status']);
  t.same(DERIVED_FIELDS, ['standard_inchi', 'standard_inchi_key', 'canonical_smiles', 'sugar_free_smiles', 'murcko_framework', 'has_stereo']);
  t.same(molecules.aliases, { murko_framework: 'murcko_framework' });
  t.same(molecules.readOnly, ['standard_inchi', 'standard_inchi_key', 'identifier', 'annotation_level', 'variants_count', 'organism_count', 'has_variants', 'is_parent']);
});
