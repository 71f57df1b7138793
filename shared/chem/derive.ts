/**
 * What the catalog derives from a molecule's structure (task `derive_molecule`): standard
 * InChI and InChIKey, RDKit canonical isomeric SMILES, a stereo flag, the Bemis-Murcko
 * framework and the COCONUT `properties` record.
 *
 * Definitions follow the service's COCONUT descriptor set (spec chem-service §2.1 (2)) so that a
 * catalog molecule and `/chem/descriptors` agree: RDKit average and exact weights, Crippen logP,
 * TPSA, RDKit's NumHBA/NumHBD and Lipinski violations counted on those, rounded like the
 * reference service (2 dp, exact weight 5 dp, Fsp3 3 dp). The `_lipinski` pair carries
 * Lipinski's own counts (N+O atoms, NH+OH hydrogens, RDKit `NOCount`/`NHOHCount`), which is what
 * COCONUT's property fields of that name hold and what the shipped demo data file uses.
 */
import type { DeriveInput, DerivedMolecule, DerivedProperties } from '../catalog/derived.ts';
import { AppError } from '../errors.ts';
import { detectFormat, withMol, type Mol, type RDKit } from './rdkit.ts';
import { pyRound } from './descriptors-format.ts';
import { molecularFormula } from './descriptors-formula.ts';
import { murckoFramework } from './descriptors-murcko.ts';
import { morganGraph } from './morgan-env.ts';

/** The keys of MinimalLib's `get_descriptors()` JSON that the properties use. */
interface MinimalLibDescriptors {
  exactmw: number;
  amw: number;
  lipinskiHBA: number;
  lipinskiHBD: number;
  NumRotatableBonds: number;
  NumHBD: number;
  NumHBA: number;
  NumHeavyAtoms: number;
  NumAtoms: number;
  FractionCSP3: number;
  NumRings: number;
  NumAromaticRings: number;
  tpsa: number;
  CrippenClogP: number;
}

interface JsonMol {
  atoms: { stereo?: string; chg?: number }[];
  bonds?: { stereo?: string }[];
}

const DEFINED_ATOM_STEREO = new Set(['cw', 'ccw']);
const DEFINED_BOND_STEREO = new Set(['cis', 'trans']);

/** True when any tetrahedral centre or double bond has a defined configuration. */
export function hasDefinedStereo(mol: Mol): boolean {
  const m = JSON.parse(mol.get_json()).molecules[0] as JsonMol;
  return (
    m.atoms.some((a) => a.stereo !== undefined && DEFINED_ATOM_STEREO.has(a.stereo)) ||
    (m.bonds ?? []).some((b) => b.stereo !== undefined && DEFINED_BOND_STEREO.has(b.stereo))
  );
}

function descriptors(mol: Mol): MinimalLibDescriptors {
  const d = JSON.parse(mol.get_descriptors()) as Partial<MinimalLibDescriptors>;
  for (const key of ['exactmw', 'amw', 'NumHBA', 'NumHBD', 'CrippenClogP', 'tpsa', 'NumAtoms'] as const) {
    // A MinimalLib build that renamed a key would otherwise fill the catalog with NaN.
    if (typeof d[key] !== 'number') throw new AppError(500, `RDKit descriptors lack "${key}"`);
  }
  return d as MinimalLibDescriptors;
}

export function deriveProperties(rdkit: RDKit, mol: Mol, murcko: string | null): DerivedProperties {
  const d = descriptors(mol);
  const graph = morganGraph(rdkit, mol);
  const ro5 = [d.CrippenClogP > 5, d.amw > 500, d.NumHBA > 10, d.NumHBD > 5].filter(Boolean).length;
  return {
    total_atom_count: d.NumAtoms,
    heavy_atom_count: d.NumHeavyAtoms,
    molecular_weight: pyRound(d.amw, 2),
    exact_molecular_weight: pyRound(d.exactmw, 5),
    molecular_formula: molecularFormula(graph),
    alogp: pyRound(d.CrippenClogP, 2),
    topological_polar_surface_area: pyRound(d.tpsa, 2),
    rotatable_bond_count: d.NumRotatableBonds,
    hydrogen_bond_acceptors: d.NumHBA,
    hydrogen_bond_donors: d.NumHBD,
    hydrogen_bond_acceptors_lipinski: d.lipinskiHBA,
    hydrogen_bond_donors_lipinski: d.lipinskiHBD,
    lipinski_rule_of_five_violations: ro5,
    aromatic_rings_count: d.NumAromaticRings,
    formal_charge: graph.atoms.reduce((sum, a) => sum + a.charge, 0),
    fractioncsp3: pyRound(d.FractionCSP3, 3),
    number_of_minimal_rings: d.NumRings,
    murcko_framework: murcko,
  };
}

function inchiOf(rdkit: RDKit, mol: Mol): { inchi: string; key: string } {
  let inchi = '';
  try {
    inchi = mol.get_inchi();
  } catch {
    inchi = '';
  }
  // InChI has no representation for query atoms, dummy atoms and some exotic valences.
  if (!inchi.startsWith('InChI=')) {
    throw new AppError(422, `No standard InChI can be computed for this structure: ${mol.get_smiles()}`, 'invalid_input');
  }
  const key = rdkit.get_inchikey_for_inchi(inchi);
  if (!/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(key)) {
    throw new AppError(422, `No InChIKey can be computed for this structure: ${mol.get_smiles()}`, 'invalid_input');
  }
  return { inchi, key };
}

export function deriveMolecule(rdkit: RDKit, input: DeriveInput): DerivedMolecule {
  const structure = input?.structure;
  if (typeof structure !== 'string' || structure.trim() === '') {
    throw new AppError(422, 'A structure (SMILES or molblock) is required', 'invalid_input');
  }
  const format = detectFormat(structure);
  if (typeof format === 'object') {
    throw new AppError(422, `Unsupported structure format: ${format.unsupported}`, 'invalid_input');
  }
  const what = format.startsWith('molblock') ? 'molblock' : 'SMILES';
  return withMol(
    rdkit,
    structure,
    (mol) => {
      const { inchi, key } = inchiOf(rdkit, mol);
      const framework = murckoFramework(rdkit, mol);
      const murcko = framework === 'None' ? null : framework;
      return {
        standard_inchi: inchi,
        standard_inchi_key: key,
        canonical_smiles: mol.get_smiles(),
        has_stereo: hasDefinedStereo(mol),
        murcko_framework: murcko,
        properties: deriveProperties(rdkit, mol, murcko),
      };
    },
    what,
  );
}
