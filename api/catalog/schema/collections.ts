/** Collections: COCONUT's `CollectionResource` (a source data set). */
import { defineSchema } from './define.ts';

export const collectionsSchema = defineSchema({
  name: 'collections',
  collection: 'collections',
  className: 'CollectionResource',
  doc: 'A source data set molecules were collected from.',
  fields: {
    id: { type: 'int', doc: 'Numeric key.' },
    title: { type: 'string', index: true, doc: 'Title (the importer\'s look-up key).' },
    description: { type: 'string', doc: 'Description.' },
    identifier: { type: 'string', index: true, doc: 'COCONUT\'s `CNPC` identifier.' },
    url: { type: 'string', doc: 'Home page.' },
    molecule_count: { type: 'int', default: 0, visibility: 'internal', doc: 'Linked molecules (maintained, not exposed).' },
  },
  relations: [{ name: 'molecules', kind: 'BelongsToMany', target: 'molecules', storage: 'remote', field: 'collection_ids' }],
  actions: [{ name: 'Refresh Counts', uriKey: 'refresh-counts', fields: {}, standalone: false }],
});
