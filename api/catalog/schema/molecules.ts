/**
 * Molecules: COCONUT's `MoleculeResource` (the seed's 20 fields, `id` first). Defaults are
 * COCONUT's column defaults (docs/spec/catalog-api.md §3.4); the importer sets its own status
 * over them (`status` option, api/catalog/import/README.md).
 */
import { defineSchema } from './define.ts';

export const moleculesSchema = defineSchema({
  name: 'molecules',
  collection: 'molecules',
  className: 'MoleculeResource',
  doc: 'A natural product: its structure, identifiers and curation state; `properties` embedded, links to organisms, citations and collections.',
  fields: {
    id: { type: 'int', doc: 'Numeric key (mutate, delete, relations).', export: 1 },
    standard_inchi: { type: 'string', readOnly: true, derived: true, index: true, doc: 'Standard InChI of the structure.' },
    standard_inchi_key: { type: 'string', readOnly: true, derived: true, index: { embedded: 'index', mongo: 'unique' }, export: 5, doc: 'Standard InChIKey; unique in the catalog.' },
    canonical_smiles: { type: 'string', derived: true, export: 4, doc: 'The structure: a client writes SMILES, CXSMILES or a molblock, stored as RDKit canonical isomeric SMILES.' },
    sugar_free_smiles: { type: 'string', derived: true, sameAs: 'canonical_smiles', doc: 'The structure after sugar removal.' },
    identifier: { type: 'string', readOnly: true, index: true, export: 2, doc: '`CNP` + 7 digits, assigned once.' },
    name: { type: 'string', index: true, export: 3, doc: 'Common name.' },
    cas: { type: 'string[]', doc: 'CAS registry numbers (mutate also takes one string).' },
    synonyms: { type: 'string[]', doc: 'Other names (mutate also takes one string; near-duplicates are dropped as COCONUT\'s synonym-dedupe does).' },
    iupac_name: { type: 'string', doc: 'IUPAC name.' },
    murko_framework: { type: 'string', stored: 'murcko_framework', derived: true, doc: 'Murcko framework (the seed\'s spelling; stored as `murcko_framework`).' },
    structural_comments: { type: 'string', doc: 'Curators\' remarks on the structure.' },
    name_trust_level: { type: 'int', default: 0, doc: 'COCONUT\'s trust in the name (nothing computes it).' },
    annotation_level: { type: 'int', default: 0, readOnly: true, index: { embedded: 'column' }, doc: 'Annotation stars, 0..5, COCONUT\'s score of name, synonyms, CAS, organisms, citations and collections (kept after every write).' },
    variants_count: { type: 'int', default: 0, readOnly: true, doc: 'A flat parent\'s number of stereo variants in the catalog (kept after every write).' },
    organism_count: { type: 'int', default: 0, readOnly: true, index: { embedded: 'column' }, doc: 'Number of linked organisms (kept after every write).' },
    status: { type: 'status', default: 'DRAFT', index: { embedded: 'column' }, repeats: true, export: 8, doc: 'DRAFT, INREVIEW, APPROVED or REVOKED (actions move it).' },
    active: { type: 'bool', default: false, index: { embedded: 'column' }, doc: 'Published.' },
    has_variants: { type: 'bool', default: false, readOnly: true, doc: 'Belongs to a stereo family: a parent with variants, or a variant whose parent is in the catalog.' },
    has_stereo: { type: 'bool', default: false, derived: true, doc: 'The structure defines stereo.' },
    is_tautomer: { type: 'bool', default: false, doc: 'Is a tautomer of another entry.' },
    is_parent: { type: 'bool', default: false, readOnly: true, doc: 'Flat parent (no stereo) of stereo variants in the catalog.' },
    is_placeholder: { type: 'bool', default: false, index: { embedded: 'column', mongo: 'index' }, doc: 'Placeholder parent nobody reported (hidden by `/api/search`).' },
  },
  relations: [
    { name: 'properties', kind: 'HasOne', target: 'properties', storage: 'embedded' },
    { name: 'organisms', kind: 'BelongsToMany', target: 'organisms', storage: 'local', field: 'organism_ids' },
    { name: 'citations', kind: 'BelongsToMany', target: 'citations', storage: 'local', field: 'citation_ids' },
    { name: 'collections', kind: 'BelongsToMany', target: 'collections', storage: 'local', field: 'collection_ids' },
  ],
  scopes: {
    active: { active: true },
    approved: { status: 'APPROVED' },
    draft: { status: 'DRAFT' },
    in_review: { status: 'INREVIEW' },
    revoked: { status: 'REVOKED' },
  },
  parameterScopes: {
    taxon: { parameters: ['taxon'], doc: 'Reported from an organism under the taxon (any rank, descendants included; api/catalog/taxonomy/taxon.ts).' },
  },
  actions: [
    { name: 'Submit For Review', uriKey: 'submit-for-review', fields: {}, standalone: false },
    { name: 'Approve', uriKey: 'approve', fields: {}, standalone: false },
    { name: 'Revoke', uriKey: 'revoke', fields: { reason: ['sometimes', 'string', 'max:1000'] }, standalone: false },
    { name: 'Recompute Properties', uriKey: 'recompute-properties', fields: {}, standalone: false },
    { name: 'Refresh Counts', uriKey: 'refresh-counts', fields: {}, standalone: false },
  ],
});
