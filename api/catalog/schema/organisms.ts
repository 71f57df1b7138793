/** Organisms: COCONUT's `OrganismResource`. */
import { defineSchema } from './define.ts';

export const organismsSchema = defineSchema({
  name: 'organisms',
  collection: 'organisms',
  className: 'OrganismResource',
  doc: 'An organism molecules were found in.',
  fields: {
    id: { type: 'int', doc: 'Numeric key.' },
    name: { type: 'string', index: true, doc: 'Scientific name (unique).' },
    iri: { type: 'string', index: true, doc: 'Taxonomy IRI, stored as given.' },
    rank: { type: 'string', doc: 'Taxonomic rank.' },
    molecule_count: { type: 'int', default: 0, readOnly: true, doc: 'Linked molecules (maintained by every write).' },
  },
  relations: [{ name: 'molecules', kind: 'BelongsToMany', target: 'molecules', storage: 'remote', field: 'organism_ids' }],
  actions: [{ name: 'Refresh Counts', uriKey: 'refresh-counts', fields: {}, standalone: false }],
});
