/**
 * The COCONUT descriptor set (docs/spec/chem-service.md §2.1 (2)) with RDKit definitions: RDKit's
 * own descriptors, computed in JavaScript on MinimalLib's perception (rdkit-props.ts), plus the
 * pieces MinimalLib lacks: QED, NP-likeness, van der Waals volume (Zhao et al. 2003 instead of a
 * random-embedding grid volume), SSSR ring count and the molecular formula. Key order is the upstream order; clients compare objects key by key.
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { FragmentTable, MorganGraph } from '../core/morgan-env.ts';
import { morganGraph } from '../core/morgan-env.ts';
import { npLikeness } from '../scores/nplikeness.ts';
import { qed, type QedData, type RDKitDescriptors } from '../scores/qed.ts';
import { vdwVolume } from './vdw-volume.ts';
import { pyRound } from '../core/format.ts';
import { molecularFormula } from '../core/formula.ts';
import { MolView } from '../core/mol-view.ts';
import { rdkitDescriptors } from './rdkit-props.ts';

export { HBA_SMARTS } from './rdkit-props.ts';


export interface DescriptorTables {
  qed: QedData;
  np: FragmentTable;
}

/**
 * Optional pieces written by other modules; a key is left out when its function is absent.
 * They receive the molecule's view, so that nothing is read or parsed twice.
 */
export interface DescriptorPlugins {
  sugars?: (rdkit: RDKit, mol: Mol, view: MolView) => { linear: boolean; circular: boolean };
  murcko: (rdkit: RDKit, mol: Mol, view: MolView) => string;
}

export type DescriptorValue = number | string | boolean | null;
export type CoconutDescriptors = Record<string, DescriptorValue>;

/** The values of the set beyond MinimalLib's descriptors, rounded as the set reports them. */
export interface CoconutScores {
  /** QED (RDKit's "mean" weights), 2 dp. */
  qed: number;
  /** Van der Waals volume in Å³ (Zhao et al. 2003), 2 dp; null for an element the method does not cover. */
  vdwVolume: number | null;
  /** NP-likeness (Ertl 2008, RDKit Contrib model), 2 dp. */
  npLikeness: number;
}

/**
 * QED, van der Waals volume and NP-likeness of the set, from what the caller already holds:
 * `coconutDescriptors` and the catalog's derivation (derive.ts) both call this, so a catalog
 * molecule's properties and `/chem/descriptors` agree.
 *
 * @param desc MinimalLib's `get_descriptors()` of the molecule
 * @param graph its Morgan graph, built from `view.json`
 */
export function coconutScores(
  rdkit: RDKit,
  mol: Mol,
  desc: RDKitDescriptors,
  graph: MorganGraph,
  view: MolView,
  tables: DescriptorTables,
): CoconutScores {
  const volume = vdwVolume(graph, view.json.rings, view.json.aromaticAtoms);
  return {
    qed: pyRound(qed(rdkit, mol, graph, desc, tables.qed, view), 2),
    vdwVolume: volume === null ? null : pyRound(volume, 2),
    npLikeness: pyRound(npLikeness(rdkit, mol, tables.np, graph).score, 2),
  };
}

/**
 * @param view the molecule's view (mol-view.ts); the molecule JSON is read once and shared by
 *   every piece below. Pass one built with `plainSmiles` when the input was a plain SMILES.
 */
export function coconutDescriptors(
  rdkit: RDKit,
  mol: Mol,
  tables: DescriptorTables,
  plugins: DescriptorPlugins,
  view: MolView = new MolView(rdkit, mol),
): CoconutDescriptors {
  const json = view.json;
  const d = rdkitDescriptors(rdkit, mol, json, view.matchGraph);
  const graph: MorganGraph = morganGraph(rdkit, mol, json);
  // RDKit's descriptors (rdkit-props.ts, or MinimalLib's for molecules outside its domain).
  const hba = d.NumHBA;
  const hbd = d.NumHBD;
  const ro5 = [d.CrippenClogP > 5, d.amw > 500, hba > 10, hbd > 5].filter(Boolean).length;
  const scores = coconutScores(rdkit, mol, d, graph, view, tables);
  const out: CoconutDescriptors = {
    atom_count: d.NumAtoms,
    heavy_atom_count: d.NumHeavyAtoms,
    molecular_weight: pyRound(d.amw, 2),
    exact_molecular_weight: pyRound(d.exactmw, 5),
    alogp: pyRound(d.CrippenClogP, 2),
    rotatable_bond_count: d.NumRotatableBonds,
    topological_polar_surface_area: pyRound(d.tpsa, 2),
    hydrogen_bond_acceptors: hba,
    hydrogen_bond_donors: hbd,
    // Upstream computes the "Lipinski" pair with the same RDKit functions (docs/spec/chem-service.md §2.1 (2)).
    hydrogen_bond_acceptors_lipinski: hba,
    hydrogen_bond_donors_lipinski: hbd,
    lipinski_rule_of_five_violations: ro5,
    aromatic_rings_count: d.NumAromaticRings,
    qed_drug_likeliness: scores.qed,
    formal_charge: graph.atoms.reduce((s, a) => s + a.charge, 0),
    fractioncsp3: pyRound(d.FractionCSP3, 3),
    // RDKit's ring count (CalcNumRings); its SSSR can exceed the cycle rank in bridged systems.
    number_of_minimal_rings: d.NumRings,
    van_der_waals_volume: scores.vdwVolume,
  };
  if (plugins.sugars) {
    const s = plugins.sugars(rdkit, mol, view);
    out.linear_sugars = s.linear;
    out.circular_sugars = s.circular;
  }
  out.murcko_framework = plugins.murcko(rdkit, mol, view);
  out.nplikeness = scores.npLikeness;
  out.molecular_formula = molecularFormula(graph);
  return out;
}
