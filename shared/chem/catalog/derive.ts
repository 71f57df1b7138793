/**
 * What the catalog derives from a molecule's structure (task `derive_molecule`): standard
 * InChI and InChIKey, RDKit canonical isomeric SMILES, a stereo flag, the Bemis-Murcko
 * framework and the COCONUT `properties` record.
 *
 * Definitions follow the service's COCONUT descriptor set (docs/spec/chem-service.md §2.1 (2)) so that a
 * catalog molecule and `/chem/descriptors` agree: RDKit average and exact weights, Crippen logP,
 * TPSA, RDKit's NumHBA/NumHBD and Lipinski violations counted on those, rounded like the
 * reference service (2 dp, exact weight 5 dp, Fsp3 3 dp). The `_lipinski` pair carries
 * Lipinski's own counts (N+O atoms, NH+OH hydrogens, RDKit `NOCount`/`NHOHCount`), which is what
 * COCONUT's property fields of that name hold and what the shipped demo data file uses.
 *
 * QED, van der Waals volume, NP-likeness and the sugar flags are the descriptor set's own values,
 * computed by the same functions with the same tables (`coconutScores`, `coconutSugarFlags`,
 * data-tables.ts) on the same molecule view. The flags map as COCONUT's import of that set does
 * (its ImportProperties command): `contains_linear_sugars` = `linear_sugars`,
 * `contains_ring_sugars` = `circular_sugars`, `contains_sugar` = either.
 *
 * The class fields come from natprod's own classifier (classes.ts): NPClassifier levels as lists
 * of every label, as COCONUT stores them, ClassyFire-style levels as one name each.
 *
 * The identifiers, Murcko framework and stereo flag come from structureRecord
 * (preprocess-record.ts), the function collection pre-processing applies to each of its
 * original, standardized and parent structures, so a catalog molecule and the pre-processing
 * of the same structure agree. The catalog stores the structure as submitted (not standardized).
 */
import type { DeriveInput, DerivedMolecule, DerivedProperties } from './ports.ts';
import { deriveClasses } from './classes.ts';
import { AppError } from '../../errors.ts';
import { detectFormat, normaliseSmiles, withMol, type Mol, type RDKit } from '../core/rdkit.ts';
import { pyRound } from '../core/format.ts';
import { molecularFormula } from '../core/formula.ts';
import { coconutScores } from '../descriptors/descriptors.ts';
import { descriptorTables } from '../core/tables.ts';
import { rdkitDescriptors } from '../descriptors/rdkit-props.ts';
import { morganCounts, morganGraph, type MorganGraph } from '../core/morgan-env.ts';
import { isPlainSmiles, MolView } from '../core/mol-view.ts';
import { requireInchi, structureRecord } from '../standardize/preprocess-record.ts';
import { coconutSugarFlags, removeSugars, removeSugarsInMol, sugarMolecule, sugarsFound, type RemovalResult } from '../sugars/sugars.ts';
import { searchFingerprints } from './fingerprints.ts';

/** The Sugar Removal Utility's settings of `sugar_free_smiles`. */
const SUGAR_FREE = { onlyTerminal: false, spiroSugars: true } as const;

/**
 * The aglycone as COCONUT and LOTUS store it (`sugar_free_smiles`): every circular and linear
 * sugar removed by the Sugar Removal Utility (also non-terminal and spiro ones), the largest
 * remaining fragment kept; the structure itself when it has no sugar; null when nothing but
 * sugar is left.
 */
export function sugarFreeSmiles(rdkit: RDKit, canonical: string): string | null {
  return aglyconeOf(rdkit, canonical, removeSugars(rdkit, canonical, 'both', SUGAR_FREE));
}

function aglyconeOf(rdkit: RDKit, canonical: string, r: RemovalResult): string | null {
  if (!r.found) return canonical;
  if (r.smiles === '') return null;
  const fragments = r.smiles.split('.');
  if (fragments.length === 1) return withMol(rdkit, r.smiles, (m) => m.get_smiles());
  const sized = fragments.map((f) => withMol(rdkit, f, (m) => ({ smiles: m.get_smiles(), heavy: m.get_num_atoms(true) })));
  return sized.reduce((a, b) => (b.heavy > a.heavy ? b : a)).smiles;
}

/**
 * sugarFreeSmiles of the derived molecule, reusing what the derivation holds: whether there is a
 * sugar to remove is decided on the molecule's own sugar analysis (the same graph as its
 * canonical SMILES read again, so the same answer), and with none the structure itself is the
 * answer at once; when the structure was given as its canonical SMILES, the removal runs on the
 * molecule itself (the same molecule the SMILES would give again).
 */
function derivedSugarFree(rdkit: RDKit, mol: Mol, view: MolView, canonical: string, isCanonical: boolean): string | null {
  const m = sugarMolecule(rdkit, mol, view);
  if (!sugarsFound(m, 'both', SUGAR_FREE)) return canonical;
  if (!isCanonical) return sugarFreeSmiles(rdkit, canonical);
  return aglyconeOf(rdkit, canonical, removeSugarsInMol(rdkit, mol, m, 'both', SUGAR_FREE));
}

/**
 * @param view the molecule's view when the caller has one (its parsed JSON is reused).
 * @param graph its Morgan graph when the caller has one.
 */
export function deriveProperties(
  rdkit: RDKit, mol: Mol, murcko: string | null, view: MolView = new MolView(rdkit, mol), graph: MorganGraph = morganGraph(rdkit, mol, view.json),
): DerivedProperties {
  const d = rdkitDescriptors(rdkit, mol, view.json, view.matchGraph);
  const ro5 = [d.CrippenClogP > 5, d.amw > 500, d.NumHBA > 10, d.NumHBD > 5].filter(Boolean).length;
  const scores = coconutScores(rdkit, mol, d, graph, view, descriptorTables());
  const sugars = coconutSugarFlags(rdkit, mol, view);
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
    qed_drug_likeliness: scores.qed,
    formal_charge: graph.atoms.reduce((sum, a) => sum + a.charge, 0),
    fractioncsp3: pyRound(d.FractionCSP3, 3),
    number_of_minimal_rings: d.NumRings,
    van_der_walls_volume: scores.vdwVolume,
    contains_sugar: sugars.linear || sugars.circular,
    contains_ring_sugars: sugars.circular,
    contains_linear_sugars: sugars.linear,
    murcko_framework: murcko,
    np_likeness: scores.npLikeness,
  };
}

/**
 * Whether the Morgan graph's bond types are RDKit's: an aromatic bond whose Kekulé order is 3
 * (`nc#cn`, RDKit keeps the triple bond and flags it aromatic) reads as aromatic there, so such a
 * molecule's search fingerprint comes from RDKit itself.
 */
function plainBondTypes(view: MolView): boolean {
  const { bonds, aromaticBonds } = view.json;
  for (const i of aromaticBonds) if (bonds[i].order > 2) return false;
  return true;
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
  // The text RDKit reads (parseMol): a plain SMILES lets the pieces rebuild derived molecules
  // from the molecule's JSON (MolView.plainSmiles).
  const text = format === 'smiles' ? normaliseSmiles(structure) : structure;
  const plain = format === 'smiles' && isPlainSmiles(text);
  return withMol(
    rdkit,
    structure,
    (mol) => {
      // One view of the molecule: its JSON is parsed once, and its sugar analysis made once,
      // for every piece below.
      const view = new MolView(rdkit, mol, plain);
      const record = structureRecord(rdkit, mol, view, { kekule: false, molblockRouteMurcko: true });
      const { inchi, inchikey } = requireInchi(record);
      const murcko = record.murcko === 'None' ? null : record.murcko;
      const graph = morganGraph(rdkit, mol, view.json);
      const properties = deriveProperties(rdkit, mol, murcko, view, graph);
      return {
        standard_inchi: inchi,
        standard_inchi_key: inchikey,
        canonical_smiles: record.smiles,
        sugar_free_smiles: derivedSugarFree(rdkit, mol, view, record.smiles, format === 'smiles' && text === record.smiles),
        has_stereo: record.stereo.defined,
        murcko_framework: murcko,
        properties: { ...properties, ...deriveClasses(rdkit, mol, properties.contains_ring_sugars, view) },
        fingerprints: searchFingerprints(mol, plainBondTypes(view) ? morganCounts(graph, 2).keys() : undefined),
      };
    },
    what,
  );
}
