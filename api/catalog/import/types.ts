/**
 * What the import readers produce: one normalized row per input record, holding whatever of a
 * molecule, organism, citation and collection the record describes. The importer (run.ts)
 * upserts each part and links them.
 */

/** Seed fields of a catalog molecule. The structure is derived again by the worker. */
export interface MoleculeSeed {
  /** SMILES as given by the source, or a molblock (SDF input); the derivation canonicalises it. */
  canonical_smiles: string;
  name: string | null;
  iupac_name: string | null;
  /** The source's InChIKey, kept to compare with the derived one. */
  standard_inchi_key?: string;
  standard_inchi?: string;
}

export interface OrganismSeed {
  name: string;
  iri: string | null;
  /** Lower-case rank name (species, variety, genus, family ...) or null when unknown. */
  rank: string | null;
}

export interface CitationSeed {
  /** Lower-cased (DOIs are case-insensitive; LOTUS stores them upper-cased). */
  doi: string | null;
  title: string | null;
  authors: string | null;
  citation_text: string | null;
}

export interface CollectionSeed {
  title: string;
  identifier: string | null;
  url: string | null;
  description: string | null;
}

export interface ImportRow {
  /** 1-based record number among the data records (header not counted). */
  row: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  molecule?: MoleculeSeed;
  organism?: OrganismSeed;
  citation?: CitationSeed;
  collection?: CollectionSeed;
  /** Why this record cannot be imported as it stands (e.g. no structure); the importer rejects it. */
  problem?: string;
}

export type ImportFormat = 'tsv' | 'csv' | 'sdf';

/** Maps one record (column name → text) to a row; chosen once per file from its header. */
export type RowMapper = (values: Record<string, string>) => Omit<ImportRow, 'row' | 'line'>;

/** Empty, `NA` (R) and `NULL` mean missing. */
export function text(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.trim();
  return t === '' || t === 'NA' || t === 'NULL' ? null : t;
}

export function normalizeDoi(v: string | undefined): string | null {
  const t = text(v);
  if (!t) return null;
  return t.replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, '').toLowerCase();
}
