/**
 * Detail operation (docs/spec/catalog-api.md §2.1, §3.2): keys in order, fields in seed order plus `id`, relations
 * with their Lomkit class names and constraints, limits, scopes, and rules/actions that depend on
 * the caller's role.
 */
import t from 'tap';
import { build } from './helper.ts';

const NO_CONSTRAINTS = { required_on_creation: false, prohibited_on_creation: false, required_on_update: false, prohibited_on_update: false };
const rel = (resource: string, relation: string, name: string) => ({ resource: `App\\Rest\\Resources\\${resource}`, relation, constraints: NO_CONSTRAINTS, name });

// Field lists of the seed (docs/spec/seed-catalog-api.md §2), each preceded by the exposed `id`.
const FIELDS: Record<string, string[]> = {
  molecules: ['id', 'standard_inchi', 'standard_inchi_key', 'canonical_smiles', 'sugar_free_smiles', 'identifier', 'name', 'cas', 'synonyms', 'iupac_name', 'murko_framework', 'structural_comments', 'name_trust_level', 'annotation_level', 'variants_count', 'organism_count', 'status', 'active', 'has_variants', 'has_stereo', 'is_tautomer', 'is_parent', 'is_placeholder'],
  collections: ['id', 'title', 'description', 'identifier', 'url'],
  citations: ['id', 'doi', 'title', 'authors', 'citation_text'],
  // natprod's taxonomy fields beside the seed's (api/catalog/schema/organisms.ts)
  organisms: ['id', 'name', 'iri', 'rank', 'domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id', 'molecule_count'],
};
const RELATIONS: Record<string, unknown[]> = {
  molecules: [rel('PropertiesResource', 'properties', 'HasOne'), rel('OrganismResource', 'organisms', 'BelongsToMany'), rel('CitationResource', 'citations', 'BelongsToMany'), rel('CollectionResource', 'collections', 'BelongsToMany')],
  collections: [rel('MoleculeResource', 'molecules', 'BelongsToMany')],
  citations: [rel('MoleculeResource', 'molecules', 'BelongsToMany')],
  organisms: [rel('MoleculeResource', 'molecules', 'BelongsToMany')],
};

t.test('detail', async (t) => {
  const b = await build(t);
  for (const name of Object.keys(FIELDS)) {
    t.test(name, async (t) => {
      const reader = await b.call('GET', `/api/${name}`, undefined, 'reader');
      t.equal(reader.status, 200);
      t.same(Object.keys(reader.json), ['data']);
      const d = reader.json.data;
      t.same(Object.keys(d), ['actions', 'instructions', 'scout_instructions', 'fields', 'scout_fields', 'limits', 'scopes', 'relations', 'rules']);
      t.same(d.fields, FIELDS[name]);
      t.same(d.relations, RELATIONS[name]);
      t.same(d.limits, [10, 25, 50]);
      t.same([d.instructions, d.scout_instructions, d.scout_fields], [[], [], []]);
      t.same(d.scopes, name === 'molecules' ? ['active', 'approved', 'draft', 'in_review', 'revoked', 'taxon'] : []);
      t.same(d.rules, { all: [], create: [], update: [] }, 'a reader may write nothing: no rules');
      const curator = (await b.call('GET', `/api/${name}`, undefined, 'curator')).json.data;
      t.same(Object.keys(curator.rules.all), FIELDS[name].slice(1), 'a curator sees the rule of every writable field');
    });
  }
  t.test('rules name the checks mutate applies', async (t) => {
    const m = (await b.call('GET', '/api/molecules', undefined, 'admin')).json.data.rules.all;
    t.match(m, { identifier: ['prohibited'], standard_inchi_key: ['prohibited'], name: ['nullable|string'], cas: ['nullable|array'], synonyms: ['nullable|array'], annotation_level: ['prohibited'], organism_count: ['prohibited'], variants_count: ['prohibited'], active: ['nullable|boolean'], status: ['nullable|in:DRAFT,INREVIEW,APPROVED,REVOKED'] });
    t.same((await b.call('GET', '/api/organisms', undefined, 'admin')).json.data.rules.all.molecule_count, ['prohibited']);
  });
  t.test('no show-one route; /api/properties is routed (test/catalog/properties-resource.test.ts)', async (t) => {
    t.equal((await b.call('GET', '/api/molecules/1', undefined, 'reader')).status, 404);
    t.equal((await b.call('GET', '/api/properties', undefined, 'reader')).status, 200);
  });
});
