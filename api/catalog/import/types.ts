/**
 * What the import readers produce: one normalized row per input record, holding whatever of a
 * molecule, organism, citation and collection the record describes. The importer (run.ts)
 * upserts each part and links them.
 */
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';

/** Seed fields of a catalog molecule. The structure is derived again by the worker. */
export interface MoleculeSeed {
  /** SMILES as given by the source, or a molblock (SDF input); the derivation canonicalises it. */
  canonical_smiles: string;
  name: string | null;
  iupac_name: string | null;
  /** The source's InChIKey, kept to compare with the derived one. */
  standard_inchi_key?: string;
  standard_inchi?: string;
  /**
   * The file's identifier (`CNP` + 7 digits, a stereo variant's `.N` suffix kept): the molecule
   * keeps it instead of a minted one (importer.ts, identity rules in the README).
   */
  identifier?: string;
  /** CAS numbers, synonyms and annotation level as the file gives them (COCONUT's downloads). */
  cas?: string[];
  synonyms?: string[];
  annotation_level?: number;
  /**
   * Properties the file gives (COCONUT's columns, typed): the descriptors are compared with
   * natprod's derivation and taken when they agree; the class columns, which nothing derives, are taken.
   */
  properties?: Record<string, string | number | boolean | string[] | null>;
  /**
   * The file's own derivation of the structure, whole (natprod's full dump carries every derived
   * column): taken instead of deriving again, checked against a fresh derivation on a sample of
   * rows (carried.ts). Fingerprints are never in a file; they are computed.
   */
  carried?: DerivedMolecule;
}

export interface OrganismSeed {
  name: string;
  iri: string | null;
  /** Lower-case rank name (species, variety, genus, family ...) or null when unknown. */
  rank: string | null;
  /** Lineage (`domain` .. `variety`) and external ids, where the source has them (absent or null: unknown). */
  taxonomy?: OrganismTaxonomy;
}

/** The organism fields beyond name, IRI and rank (api/catalog/schema/organisms.ts). */
export interface OrganismTaxonomy {
  domain?: string | null;
  kingdom?: string | null;
  phylum?: string | null;
  class?: string | null;
  order?: string | null;
  family?: string | null;
  tribe?: string | null;
  genus?: string | null;
  species?: string | null;
  variety?: string | null;
  ncbi_id?: number | null;
  gbif_id?: number | null;
  ott_id?: number | null;
  wikidata_id?: string | null;
}

/**
 * A taxonomy id: a positive integer, or the first of R's `c("1", "2")` list (LOTUS lists several
 * GBIF keys for some names); null when missing or not a number.
 */
export function taxonId(v: string | undefined): number | null {
  const t = text(v);
  if (!t) return null;
  const first = /^c\(\s*"?(\d+)"?/.exec(t)?.[1] ?? t;
  if (!/^\d+$/.test(first)) return null;
  const n = Number(first);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** `Q5403854` from a Wikidata IRI (`http://www.wikidata.org/entity/Q5403854`, `.../wiki/Q...`) or a bare `Q...`; else null. */
export function wikidataId(v: string | null | undefined): string | null {
  const t = v?.trim();
  if (!t) return null;
  const m = /^(?:https?:\/\/(?:www\.)?wikidata\.org\/(?:entity|wiki)\/)?(Q[1-9]\d*)\/?$/i.exec(t);
  return m ? m[1].toUpperCase() : null;
}

/** The taxonomy without its unknown (null or absent) entries. */
export function knownTaxonomy(t: OrganismTaxonomy | undefined): OrganismTaxonomy {
  return Object.fromEntries(Object.entries(t ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== ''));
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
  /** Several of each (COCONUT's `|`-joined `organisms`, `dois`, `collections`), linked like the single ones. */
  organisms?: OrganismSeed[];
  citations?: CitationSeed[];
  collections?: CollectionSeed[];
  /**
   * Whose identifiers the row carries: `coconut` (COCONUT's downloads: its ids win over ids this
   * catalog minted, and the molecule is linked to the COCONUT collection), or `file` (another
   * file's ids, e.g. natprod's own dump: kept when free, a clash rejects the row).
   */
  authority?: 'coconut' | 'file';
  /** Why this record cannot be imported as it stands (e.g. no structure); the importer rejects it. */
  problem?: string;
}

/** `zip`: an archive holding one file of the other formats (parse.ts `openImport`). */
export type ImportFormat = 'tsv' | 'csv' | 'sdf' | 'zip';

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
