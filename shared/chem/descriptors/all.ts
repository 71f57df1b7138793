/**
 * The RDKit column of /chem/descriptors?toolkit=all: the original service's combined table
 * (app/modules/all_descriptors.py of CM 3.11, get_all_rdkit_descriptors) with its 19
 * human-readable names in its order. It differs from the COCONUT set in three places: a bond
 * count (RDKit's GetNumBonds: bonds between the atoms of the molecule, hydrogens implicit), the
 * fraction of sp3 carbons with 2 decimals instead of 3, and no sugar flags, framework,
 * NP-likeness or formula. The van der Waals volume is natprod's deterministic one, as in the
 * COCONUT set (descriptors.ts). The CDK column comes from the CDK sidecar (shared/toolkits/routes.ts).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import { morganGraph } from '../core/morgan-env.ts';
import { pyRound } from '../core/format.ts';
import { MolView } from '../core/mol-view.ts';
import { rdkitDescriptors } from './rdkit-props.ts';
import { coconutScores, type DescriptorTables } from './descriptors.ts';

/** The original's names, in its order. */
export const ALL_DESCRIPTOR_NAMES = [
  'Atom count', 'Bond count', 'Heavy atom count', 'Molecular weight', 'Exact molecular weight', 'Calculated LogP',
  'Rotatable bond count', 'Topological polar surface area', 'Hydrogen bond acceptors', 'Hydrogen bond donors',
  'Hydrogen bond acceptors (Lipinski)', 'Hydrogen bond donors (Lipinski)', "Lipinski's rule of five violations",
  'Aromatic rings count', 'QED drug likeliness', 'Formal Charge', 'FractionCSP3', 'Number of Minimal Rings',
  'Van der Waals Volume',
] as const;

export type AllDescriptorName = (typeof ALL_DESCRIPTOR_NAMES)[number];

/** The RDKit values of the combined table, keyed by the original's names. */
export function rdkitAllDescriptors(rdkit: RDKit, mol: Mol, tables: DescriptorTables, view: MolView = new MolView(rdkit, mol)): Record<AllDescriptorName, number | null> {
  const json = view.json;
  const d = rdkitDescriptors(rdkit, mol, json, view.matchGraph);
  const graph = morganGraph(rdkit, mol, json);
  const scores = coconutScores(rdkit, mol, d, graph, view, tables);
  const ro5 = [d.CrippenClogP > 5, d.amw > 500, d.NumHBA > 10, d.NumHBD > 5].filter(Boolean).length;
  return {
    'Atom count': d.NumAtoms,
    'Bond count': json.bonds.length,
    'Heavy atom count': d.NumHeavyAtoms,
    'Molecular weight': pyRound(d.amw, 2),
    'Exact molecular weight': pyRound(d.exactmw, 5),
    'Calculated LogP': pyRound(d.CrippenClogP, 2),
    'Rotatable bond count': d.NumRotatableBonds,
    'Topological polar surface area': pyRound(d.tpsa, 2),
    'Hydrogen bond acceptors': d.NumHBA,
    'Hydrogen bond donors': d.NumHBD,
    // As upstream: the "Lipinski" pair with the same RDKit functions (Lipinski.NumHAcceptors is CalcNumHBA).
    'Hydrogen bond acceptors (Lipinski)': d.NumHBA,
    'Hydrogen bond donors (Lipinski)': d.NumHBD,
    "Lipinski's rule of five violations": ro5,
    'Aromatic rings count': d.NumAromaticRings,
    'QED drug likeliness': scores.qed,
    'Formal Charge': graph.atoms.reduce((s, a) => s + a.charge, 0),
    FractionCSP3: pyRound(d.FractionCSP3, 2),
    'Number of Minimal Rings': d.NumRings,
    'Van der Waals Volume': scores.vdwVolume,
  };
}
