/** Citations: COCONUT's `CitationResource`. */
import { defineSchema } from './define.ts';

export const citationsSchema = defineSchema({
  name: 'citations',
  collection: 'citations',
  className: 'CitationResource',
  doc: 'A publication that reports molecules.',
  fields: {
    id: { type: 'int', doc: 'Numeric key.' },
    doi: { type: 'string', index: true, doc: 'DOI (unique when set).' },
    title: { type: 'string', index: { embedded: 'index' }, doc: 'Title (the importer finds a citation without DOI by it).' },
    authors: { type: 'string', doc: 'Authors.' },
    citation_text: { type: 'string', doc: 'Formatted reference.' },
  },
  relations: [{ name: 'molecules', kind: 'BelongsToMany', target: 'molecules', storage: 'remote', field: 'citation_ids' }],
});
