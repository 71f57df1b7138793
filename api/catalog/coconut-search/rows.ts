/**
 * The record of each hit: the columns COCONUT's search answers (`identifier, canonical_smiles,
 * annotation_level, name, iupac_name, organism_count, citation_count, geo_count,
 * collection_count, active`), in that order, preceded by natprod's `id` and followed by the
 * `standard_inchi_key` (COCONUT's tag search answers whole molecule rows, which hold both) and,
 * for structure searches, the `similarity`. The counts are those of the molecule's links;
 * natprod keeps no geographic locations, so `geo_count` is null.
 */
import type { Doc } from '../store/types.ts';

export interface CoconutRow {
  id: number;
  identifier: unknown;
  canonical_smiles: unknown;
  annotation_level: unknown;
  name: unknown;
  iupac_name: unknown;
  organism_count: number;
  citation_count: number;
  geo_count: null;
  collection_count: number;
  active: unknown;
  standard_inchi_key: unknown;
  similarity?: number;
}

export const ROW_FIELDS = ['identifier', 'canonical_smiles', 'annotation_level', 'name', 'iupac_name', 'active', 'standard_inchi_key', 'organism_ids', 'citation_ids', 'collection_ids'];

const n = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const or = (v: unknown) => (v === undefined ? null : v);

export function coconutRow(d: Doc, similarity?: number): CoconutRow {
  return {
    id: d.id,
    identifier: or(d.identifier),
    canonical_smiles: or(d.canonical_smiles),
    annotation_level: or(d.annotation_level),
    name: or(d.name),
    iupac_name: or(d.iupac_name),
    organism_count: n(d.organism_ids),
    citation_count: n(d.citation_ids),
    geo_count: null,
    collection_count: n(d.collection_ids),
    active: or(d.active),
    standard_inchi_key: or(d.standard_inchi_key),
    ...(similarity === undefined ? {} : { similarity }),
  };
}
