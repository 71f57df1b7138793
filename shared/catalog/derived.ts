import type { StoredFingerprints } from '../chem/catalog/search-fingerprints.ts';

/**
 * What a worker derives from a molecule's structure when a catalog molecule is created or
 * updated (task `derive_molecule`). Shared by the catalog (api side) and the task (worker side).
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
  properties: DerivedProperties;
  /** Structure-search fingerprints (shared/chem/catalog/search-fingerprints.ts), stored with the molecule. */
  fingerprints?: StoredFingerprints;
}

/**
 * How the catalog obtains a derivation: in the service a `derive_molecule` job on the worker
 * threads; in the import CLI and in tests a direct call. Rejects with a 422 `AppError` for a
 * structure that cannot be read.
 */
export type Derive = (input: DeriveInput) => Promise<DerivedMolecule> | DerivedMolecule;

/** The molecule fields a derivation sets (stored names); `properties` are written separately. */
export function derivedFields(d: DerivedMolecule): Record<string, unknown> {
  return {
    standard_inchi: d.standard_inchi,
    standard_inchi_key: d.standard_inchi_key,
    canonical_smiles: d.canonical_smiles,
    has_stereo: d.has_stereo,
    murcko_framework: d.murcko_framework,
    ...(d.sugar_free_smiles !== undefined ? { sugar_free_smiles: d.sugar_free_smiles } : {}),
    ...(d.fingerprints ? { fingerprints: d.fingerprints } : {}),
  };
}
