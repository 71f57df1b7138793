/**
 * What the catalog (api/catalog/, run by the api process and its command-line tools) and the
 * chemistry that serves it (worker threads, worker processes) agree on, so that the workers need
 * none of the catalog's own modules: the row feed of the structure-search index and what a
 * derivation writes. The catalog's store and its types stay with the catalog.
 */
import type { StoredFingerprints } from './fingerprints.ts';

/**
 * A catalog molecule as the structure-search index takes it in: its id, its canonical SMILES and
 * its stored `fingerprints` field as read (any value: the index checks it and computes the
 * fingerprints when it is missing, malformed or outdated; shared/structure-search/rows.ts).
 */
export interface RowInput {
  id: number;
  smiles: string;
  fingerprints?: unknown;
}

/**
 * Where the catalog's molecule writes go to keep the structure-search index in step
 * (api/catalog/search/structure/feed.ts): the api's own index in the inline mode
 * (shared/structure-search/service.ts), Redis in the distributed mode (shared/structure-search/redis-feed.ts).
 */
export interface SearchFeed {
  put(rows: RowInput[]): Promise<void>;
  remove(ids: number[]): Promise<void>;
  /** Replaces the whole index with the store's molecules. */
  rebuild(pages: () => AsyncIterable<RowInput[]>, expected: number): Promise<void>;
}

/**
 * What a worker derives from a molecule's structure when a catalog molecule is created or
 * updated (task `derive_molecule`, shared/chem/catalog/derive.ts).
 */
export interface DeriveInput {
  /** SMILES, CXSMILES or a V2000/V3000 molblock. */
  structure: string;
}

export interface DerivedProperties {
  total_atom_count: number;
  heavy_atom_count: number;
  molecular_weight: number;
  exact_molecular_weight: number;
  molecular_formula: string;
  alogp: number;
  topological_polar_surface_area: number;
  rotatable_bond_count: number;
  hydrogen_bond_acceptors: number;
  hydrogen_bond_donors: number;
  hydrogen_bond_acceptors_lipinski: number;
  hydrogen_bond_donors_lipinski: number;
  lipinski_rule_of_five_violations: number;
  aromatic_rings_count: number;
  /** QED as `/chem/descriptors` answers it (`qed_drug_likeliness`). */
  qed_drug_likeliness: number;
  formal_charge: number;
  fractioncsp3: number;
  number_of_minimal_rings: number;
  /** `/chem/descriptors` `van_der_waals_volume` (COCONUT's field name); null for elements the method does not cover. */
  van_der_walls_volume: number | null;
  /** `linear_sugars || circular_sugars` of `/chem/descriptors`, as COCONUT imports them. */
  contains_sugar: boolean;
  /** `/chem/descriptors` `circular_sugars`. */
  contains_ring_sugars: boolean;
  /** `/chem/descriptors` `linear_sugars`. */
  contains_linear_sugars: boolean;
  murcko_framework: string | null;
  /** `/chem/descriptors` `nplikeness`. */
  np_likeness: number;
}

/**
 * The class fields (shared/chem/catalog/classes.ts): ClassyFire-style levels as one name each,
 * NPClassifier levels as lists of every label (COCONUT's arrays), null where the classifier has none.
 */
export interface DerivedClasses {
  chemical_class: string | null;
  chemical_sub_class: string | null;
  chemical_super_class: string | null;
  direct_parent_classification: string | null;
  np_classifier_pathway: string[] | null;
  np_classifier_superclass: string[] | null;
  np_classifier_class: string[] | null;
  np_classifier_is_glycoside: boolean | null;
}

export interface DerivedMolecule {
  standard_inchi: string;
  standard_inchi_key: string;
  /** RDKit canonical isomeric SMILES. */
  canonical_smiles: string;
  /** Filled when the derivation runs sugar removal; absent otherwise (the stored value is kept). */
  sugar_free_smiles?: string | null;
  has_stereo: boolean;
  murcko_framework: string | null;
  /** Stored as given. */
  /** The class fields are always set by `derive_molecule`; a derivation that leaves them out (test fakes) keeps the stored ones. */
  properties: DerivedProperties & Partial<DerivedClasses>;
  /** Structure-search fingerprints (fingerprints.ts), stored with the molecule. */
  fingerprints?: StoredFingerprints;
}
