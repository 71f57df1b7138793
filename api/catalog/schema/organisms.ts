/**
 * Organisms: COCONUT's `OrganismResource`, plus natprod's lineage (`domain` .. `variety`, null
 * where the source names none) and external taxonomy ids, imported from LOTUS (import/lotus.ts)
 * and from generic files with such columns (import/generic.ts). Taxon queries over them:
 * api/catalog/taxonomy/taxon.ts.
 */
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
    domain: { type: 'string', doc: 'Lineage: domain (LOTUS `organism_taxonomy_01domain`; NCBI superkingdom), e.g. Eukaryota.' },
    kingdom: { type: 'string', doc: 'Lineage: kingdom, e.g. Archaeplastida or Plantae.' },
    phylum: { type: 'string', doc: 'Lineage: phylum, e.g. Streptophyta.' },
    class: { type: 'string', doc: 'Lineage: class, e.g. Magnoliopsida.' },
    order: { type: 'string', doc: 'Lineage: order, e.g. Asterales.' },
    family: { type: 'string', index: true, doc: 'Lineage: family, e.g. Asteraceae.' },
    tribe: { type: 'string', doc: 'Lineage: tribe, e.g. Anthemideae.' },
    genus: { type: 'string', index: true, doc: 'Lineage: genus, e.g. Artemisia.' },
    species: { type: 'string', doc: 'Lineage: species (binomial), e.g. Artemisia annua.' },
    variety: { type: 'string', doc: 'Lineage: variety (LOTUS `organism_taxonomy_10varietas`).' },
    ncbi_id: { type: 'int', index: true, doc: 'NCBI Taxonomy id of the organism.' },
    gbif_id: { type: 'int', index: true, doc: 'GBIF Backbone taxon key (the first when the source lists several).' },
    ott_id: { type: 'int', index: true, doc: 'Open Tree of Life taxonomy id.' },
    wikidata_id: { type: 'string', index: true, doc: 'Wikidata item, e.g. Q5403854 (from a Wikidata IRI).' },
    molecule_count: { type: 'int', default: 0, readOnly: true, doc: 'Linked molecules (maintained by every write).' },
  },
  relations: [{ name: 'molecules', kind: 'BelongsToMany', target: 'molecules', storage: 'remote', field: 'organism_ids' }],
  actions: [{ name: 'Refresh Counts', uriKey: 'refresh-counts', fields: {}, standalone: false }],
});
