// NOTE TO THE CATALOG ENGINEER (temporary, the lead removes it): team ground rules are in
// /tmp/helper-common.md — read them now. In short: never run git or npm install/ci, never edit
// package.json/package-lock.json (ask in your report; the lead adds the `token` and
// `catalog:import` scripts), keep to your paths, stop and report by 21:00 UTC with files,
// test counts and measured figures.
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
  formal_charge: number;
  fractioncsp3: number;
  number_of_minimal_rings: number;
  murcko_framework: string | null;
}

export interface DerivedMolecule {
  standard_inchi: string;
  standard_inchi_key: string;
  /** RDKit canonical isomeric SMILES. */
  canonical_smiles: string;
  has_stereo: boolean;
  murcko_framework: string | null;
  properties: DerivedProperties;
}
